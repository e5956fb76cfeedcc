"""mrnn_workbench: the models `mrnn export` writes, in plain PyTorch.

    import mrnn_workbench
    model = mrnn_workbench.load("run.pt")        # or a .safetensors export
    model.score("the cat sat.").bits_per_symbol
    model.sample("the ", length=100).text

The model is a torch.nn.Module whose state dict has the exported tensor names; see
python/README.md for the file format.
"""

from .cells import CELLS, make_cell
from .heads import MixtureOfSoftmaxes, SoftmaxOutput
from .model import LanguageModel, Sample, TextScore
from .model_file import ModelFileError, build_model, load, read_model_file, save
from .safetensors import SafetensorsError, read_safetensors, write_safetensors
from .vocabulary import Vocabulary

__version__ = "0.1.0"

__all__ = [
    "CELLS", "LanguageModel", "MixtureOfSoftmaxes", "ModelFileError", "Sample",
    "SafetensorsError", "SoftmaxOutput", "TextScore", "Vocabulary", "build_model", "load",
    "make_cell", "read_model_file", "read_safetensors", "save", "write_safetensors",
]
