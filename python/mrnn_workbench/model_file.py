"""Reading and writing the files `mrnn export` writes.

- format pt: FILE is a zip-format torch file that torch.load(FILE, weights_only=True) reads
  as a dict {name: float32 tensor}; the model description is the JSON file FILE.json beside
  it.
- format safetensors: FILE is a safetensors file; the same JSON text is the string value of
  key "mrnn" of its __metadata__.

The JSON document: {"format": "mrnn-workbench-model", "version": 1, "model": {...},
"model_yaml": "...", "vocabulary": {"level", "symbols"}, "source": {...}} (python/README.md).
Loading checks that every tensor the description implies is in the file with its shape, and
names whatever is missing, extra or misshapen.
"""

import json
import os
from typing import Dict, Optional, Tuple

import torch

from .model import LanguageModel
from .safetensors import read_safetensors, write_safetensors
from .vocabulary import Vocabulary

FORMAT = "mrnn-workbench-model"
VERSION = 1
METADATA_KEY = "mrnn"
LAYER_KEYS = ("type", "hidden_size", "m_size", "output_gate", "rounds", "rank", "zigzag",
              "major_size", "minor_size", "minor_input", "bias")


class ModelFileError(ValueError):
    """An exported model that cannot be read; the message names the file and what is wrong."""


def file_format(path: str) -> str:
    """"pt" for a zip file (what torch.save writes), "safetensors" otherwise."""
    with open(path, "rb") as f:
        return "pt" if f.read(4) == b"PK\x03\x04" else "safetensors"


def read_model_file(path: str) -> Tuple[Dict[str, torch.Tensor], dict, str]:
    """The tensors, the JSON document and the format ("pt" or "safetensors") of a file."""
    if not os.path.isfile(path):
        raise ModelFileError(f"{path}: no such file")
    kind = file_format(path)
    if kind == "pt":
        try:
            tensors = torch.load(path, map_location="cpu", weights_only=True)
        except Exception as error:  # the unpickler's errors have no common base
            raise ModelFileError(f"{path}: torch.load(weights_only=True) cannot read it: "
                                 f"{error}") from None
        if not isinstance(tensors, dict) or not all(
                isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in tensors.items()):
            raise ModelFileError(f"{path}: expected a dict of named tensors, found "
                                 f"{type(tensors).__name__}")
        sidecar = path + ".json"
        if not os.path.isfile(sidecar):
            raise ModelFileError(f"{path}: the model description {sidecar} is missing "
                                 f"(mrnn export writes it beside a .pt file)")
        with open(sidecar, "rb") as f:
            text = f.read().decode("utf-8")
        where = sidecar
    else:
        tensors, metadata = read_safetensors(path)
        if METADATA_KEY not in metadata:
            raise ModelFileError(f"{path}: the safetensors __metadata__ has no {METADATA_KEY!r} "
                                 f"key holding the model description (keys: "
                                 f"{sorted(metadata) or 'none'})")
        text = metadata[METADATA_KEY]
        where = f"{path} (__metadata__.{METADATA_KEY})"
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ModelFileError(f"{where}: not JSON ({error})") from None
    check_document(document, where)
    return tensors, document, kind


def check_document(document: dict, where: str) -> None:
    """Raises ModelFileError naming each key the description lacks."""
    def need(container, key, path):
        if not isinstance(container, dict) or key not in container:
            raise ModelFileError(f"{where}: the model description has no {path}")
        return container[key]

    if document.get("format") != FORMAT:
        raise ModelFileError(f"{where}: format is {document.get('format')!r}, "
                             f"not {FORMAT!r}")
    version = document.get("version")
    if version != VERSION:
        raise ModelFileError(f"{where}: version {version!r}; this package reads version "
                             f"{VERSION}")
    model = need(document, "model", "model")
    spec_input = need(model, "input", "model.input")
    need(spec_input, "level", "model.input.level")
    need(spec_input, "embedding_size", "model.input.embedding_size")
    layers = need(model, "layers", "model.layers")
    if not isinstance(layers, list) or not layers:
        raise ModelFileError(f"{where}: model.layers must list at least one layer")
    for index, layer in enumerate(layers):
        for key in LAYER_KEYS:
            need(layer, key, f"model.layers[{index}].{key}")
    output = need(model, "output", "model.output")
    kind = need(output, "kind", "model.output.kind")
    need(output, "tied", "model.output.tied")
    if kind == "mos":
        need(output, "mixtures", "model.output.mixtures")
        need(output, "latent_size", "model.output.latent_size")
    vocabulary = need(document, "vocabulary", "vocabulary")
    level = need(vocabulary, "level", "vocabulary.level")
    if level != spec_input["level"]:
        raise ModelFileError(f"{where}: vocabulary.level {level!r} differs from "
                             f"model.input.level {spec_input['level']!r}")
    if level != "byte":
        need(vocabulary, "symbols", "vocabulary.symbols")
    count = 256 if level == "byte" else len(vocabulary["symbols"])
    stated = spec_input.get("vocabulary_size")
    if stated is not None and stated != count:
        raise ModelFileError(f"{where}: model.input.vocabulary_size is {stated} but the "
                             f"vocabulary lists {count} symbols")


def build_model(document: dict) -> LanguageModel:
    """The model a description implies, its parameters zero."""
    spec = document["vocabulary"]
    vocabulary = Vocabulary(spec["level"], spec.get("symbols"))
    return LanguageModel(document["model"], vocabulary, document)


def check_tensors(model: LanguageModel, tensors: Dict[str, torch.Tensor], where: str) -> None:
    """Raises ModelFileError listing every expected tensor that is missing or misshapen and
    every tensor of the file the model has no place for."""
    expected = {name: tuple(value.shape) for name, value in model.state_dict().items()}
    found = {name: tuple(value.shape) for name, value in tensors.items()}
    problems = []
    missing = [f"{n} {list(s)}" for n, s in expected.items() if n not in found]
    extra = [f"{n} {list(s)}" for n, s in found.items() if n not in expected]
    shapes = [f"{n} is {list(found[n])}, expected {list(s)}"
              for n, s in expected.items() if n in found and found[n] != s]
    kinds = [f"{n} is {t.dtype}" for n, t in tensors.items()
             if n in expected and not t.is_floating_point()]
    if missing:
        problems.append("missing " + ", ".join(missing))
    if extra:
        problems.append("unexpected " + ", ".join(extra))
    if shapes:
        problems.append("wrong shape: " + "; ".join(shapes))
    if kinds:
        problems.append("not floating point: " + ", ".join(kinds))
    if problems:
        raise ModelFileError(f"{where}: the tensors do not match the model description: "
                             + "; ".join(problems))


def load(path: str, dtype: Optional[torch.dtype] = None, device=None) -> LanguageModel:
    """The model an `mrnn export` file holds (pt or safetensors, told apart by content), in
    eval mode, float32 unless `dtype` says otherwise."""
    tensors, document, _ = read_model_file(path)
    model = build_model(document)
    check_tensors(model, tensors, path)
    model.load_state_dict({name: value.to(torch.float32) for name, value in tensors.items()})
    if dtype is not None:
        model.to(dtype)
    if device is not None:
        model.to(device)
    return model.eval()


def document_of(model: LanguageModel) -> dict:
    """The JSON document for `model`: the one it was loaded with, its vocabulary filled in."""
    document = dict(model.document)
    document["format"], document["version"] = FORMAT, VERSION
    document["model"] = model.description
    vocabulary = {"level": model.vocabulary.level}
    if model.vocabulary.level != "byte":
        vocabulary["symbols"] = model.vocabulary.symbols
    document["vocabulary"] = vocabulary
    return document


def save(model: LanguageModel, path: str, format: Optional[str] = None) -> None:
    """Writes `model` as `mrnn export` would: format "pt" (FILE and FILE.json) or
    "safetensors" (the description in __metadata__); by default from the suffix."""
    if format is None:
        format = "safetensors" if path.endswith(".safetensors") else "pt"
    tensors = {name: value.detach().to("cpu", torch.float32).contiguous()
               for name, value in model.state_dict().items()}
    text = json.dumps(document_of(model), indent=1, ensure_ascii=False)
    if format == "pt":
        torch.save(tensors, path)
        with open(path + ".json", "w", encoding="utf-8") as f:
            f.write(text + "\n")
    elif format == "safetensors":
        write_safetensors(path, tensors, {METADATA_KEY: text})
    else:
        raise ValueError(f"format is pt or safetensors, not {format!r}")
