"""The language model: input vectors -> stack of zoo cells -> softmax or Mixture of Softmaxes,
built from an exported model description, with the scoring and sampling of `mrnn score` and
`mrnn sample`.

Layer inputs follow engine/models/language_model.cpp: layer 1 reads the input vectors (the
embedding, or the one-hot vector when embedding_size is 0), every later layer the output of
the layer below, and every layer is also handed the input vectors themselves (only the
Major-Minor LSTM's minor half reads them). Evaluation only: no dropout anywhere.
"""

import math
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple, Union

import torch
from torch import nn

from .cells import make_cell
from .heads import MixtureOfSoftmaxes, SoftmaxOutput
from .vocabulary import Text, Vocabulary

LayerState = Tuple[torch.Tensor, ...]
ModelState = List[LayerState]
Ids = Union[torch.Tensor, Sequence[int]]

LOG2E = 1.0 / math.log(2.0)


class InputLayer(nn.Module):
    """Symbols to vectors: a linear embedding [V, E], or the one-hot vector (width V) when
    embedding_size is 0."""

    def __init__(self, vocab: int, embedding_size: int):
        super().__init__()
        self.vocab = vocab
        self.embedding_size = embedding_size
        if embedding_size > 0:
            self.embedding = nn.Parameter(torch.zeros(vocab, embedding_size))

    @property
    def output_size(self) -> int:
        return self.embedding_size if self.embedding_size > 0 else self.vocab

    def extra_repr(self) -> str:
        if self.embedding_size > 0:
            return f"vocabulary={self.vocab}, embedding={self.embedding_size}"
        return f"vocabulary={self.vocab}, one-hot"

    def forward(self, ids: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
        if self.embedding_size > 0:
            return self.embedding[ids]
        return nn.functional.one_hot(ids, self.vocab).to(dtype)


@dataclass
class TextScore:
    """A text scored symbol by symbol, as `mrnn score` does.

    ids, symbols: every symbol of the text. log_probabilities [P] (natural log, float64) and
    bits [P] belong to symbols[first_predicted:]: without a context the first symbol has
    nothing before it and is not predicted (first_predicted = 1)."""

    ids: List[int]
    symbols: List[str]
    log_probabilities: torch.Tensor
    first_predicted: int
    total_bits: float
    bits_per_symbol: float

    @property
    def bits(self) -> torch.Tensor:
        return -self.log_probabilities * LOG2E

    def rows(self):
        """(symbol, log-probability or None) for every symbol of the text."""
        for index, symbol in enumerate(self.symbols):
            k = index - self.first_predicted
            yield symbol, (float(self.log_probabilities[k]) if k >= 0 else None)


@dataclass
class Sample:
    """Generated text: the symbols after the prime (the prime is not repeated)."""

    text: str
    ids: List[int]
    pieces: List[str] = field(repr=False)  # what each symbol adds to the text
    log_probabilities: List[float] = field(repr=False)  # natural log, under the model

    @property
    def log_probability(self) -> float:
        return float(sum(self.log_probabilities))

    def __str__(self) -> str:
        return self.text


class LanguageModel(nn.Module):
    """A recurrent language model as `mrnn export` describes it. Its state dict's keys are
    the exported tensor names (input.embedding, layer1.W_x, ..., output.b)."""

    def __init__(self, description: dict, vocabulary: Vocabulary, document: Optional[dict] = None):
        super().__init__()
        self.description = description
        self.vocabulary = vocabulary
        self.document = document or {"model": description}
        vocab = len(vocabulary)
        spec_input = description["input"]
        if int(spec_input.get("values", 0) or 0) > 0:
            raise ValueError("models that read real values beside each symbol (input.values) "
                             "are not supported")
        self.input = InputLayer(vocab, int(spec_input["embedding_size"]))
        width = self.input.output_size
        self.layer_names = []
        for index, spec in enumerate(description["layers"], start=1):
            cell = make_cell(spec, width, self.input.output_size)
            name = f"layer{index}"
            self.add_module(name, cell)
            self.layer_names.append(name)
            width = cell.output_size
        spec_output = description["output"]
        kind = spec_output["kind"]
        self.tied = bool(spec_output.get("tied", False))
        if self.tied and self.input.embedding_size == 0:
            raise ValueError("output.tied needs a linear embedding (input.embedding_size > 0)")
        if kind == "softmax":
            self.output = SoftmaxOutput(width, vocab, self.tied)
        elif kind == "mos":
            latent = self.input.embedding_size if self.tied else \
                int(spec_output.get("latent_size") or width)
            self.output = MixtureOfSoftmaxes(width, vocab, int(spec_output["mixtures"]), latent,
                                             self.tied)
        else:
            raise ValueError(f"output kind {kind!r} is not supported (softmax or mos)")
        self.eval()

    # -- the forward pass ------------------------------------------------------------------

    @property
    def layers(self) -> List[nn.Module]:
        return [getattr(self, name) for name in self.layer_names]

    @property
    def dtype(self) -> torch.dtype:
        return self.output.b.dtype if hasattr(self.output, "b") else self.output.b_out.dtype

    @property
    def device(self) -> torch.device:
        return next(self.parameters()).device

    def initial_state(self, batch: int = 1) -> ModelState:
        return [layer.initial_state(batch, self.dtype, self.device) for layer in self.layers]

    def hidden(self, ids: torch.Tensor, state: Optional[ModelState] = None):
        """ids [T, B] -> the top layer's output [T, B, H] and the state after the last step."""
        if state is None:
            state = self.initial_state(ids.shape[1])
        embedded = self.input(ids, self.dtype)  # [T, B, W]
        x = embedded
        new_state = []
        for layer, layer_state in zip(self.layers, state):
            outputs = []
            for t in range(ids.shape[0]):
                h, layer_state = layer.step(x[t], embedded[t], layer_state)
                outputs.append(h)
            x = torch.stack(outputs) if outputs else x.new_zeros(0, ids.shape[1], layer.output_size)
            new_state.append(layer_state)
        return x, new_state

    def forward(self, ids: torch.Tensor, state: Optional[ModelState] = None):
        """ids [T, B] -> log-probabilities of the next symbol [T, B, V], and the state."""
        top, state = self.hidden(ids, state)
        embedding = self.input.embedding if self.tied else None
        return self.output(top, embedding), state

    def log_probabilities(self, ids: Ids, state: Optional[ModelState] = None) -> torch.Tensor:
        """Natural-log probabilities of the symbol after each of `ids`: [T] ids -> [T, V],
        [T, B] -> [T, B, V]. Starts from the zero state unless `state` is given."""
        ids = torch.as_tensor(ids, dtype=torch.long, device=self.device)
        single = ids.dim() == 1
        logp, _ = self.forward(ids.unsqueeze(1) if single else ids, state)
        return logp.squeeze(1) if single else logp

    # -- what mrnn score and mrnn sample do --------------------------------------------------

    @torch.no_grad()
    def score(self, text: Text, context: Text = "") -> TextScore:
        """Every symbol of `text` with its log-probability given those before it, as
        `mrnn score --text TEXT [--context C]`: without a context the first symbol is not
        predicted; with one, the context's last symbol predicts the text's first."""
        context_ids = self.vocabulary.encode(context) if len(context) else []
        text_ids = self.vocabulary.encode(text)
        every = context_ids + text_ids
        offset = len(context_ids)
        first = 1 if offset == 0 else 0
        if len(every) >= 2:
            logp = self.log_probabilities(every[:-1]).double()  # row r predicts every[r + 1]
            targets = torch.tensor(every[1:], dtype=torch.long, device=logp.device)
            picked = logp.gather(1, targets.unsqueeze(1)).squeeze(1).cpu()
            picked = picked[max(offset - 1, 0):]
        else:
            picked = torch.zeros(0, dtype=torch.float64)
        total_bits = float(-picked.sum()) * LOG2E
        return TextScore(
            ids=text_ids,
            symbols=[self.vocabulary.symbol(i) for i in text_ids],
            log_probabilities=picked,
            first_predicted=first if text_ids else 0,
            total_bits=total_bits,
            bits_per_symbol=total_bits / len(picked) if len(picked) else 0.0,
        )

    def prime_ids(self, prime: Text) -> List[int]:
        """The ids a prime is read as; an empty prime is a line break (<eos>, or "\\n" where
        the vocabulary has it, else symbol 0), as `mrnn sample` starts."""
        if not len(prime):
            start = self.vocabulary.eos_id
            if start < 0:
                start = self.vocabulary.find("\n")
            return [max(start, 0)]
        ids = self.vocabulary.encode(prime)
        if not ids:
            raise ValueError("the prime holds no symbol of the vocabulary")
        return ids

    @torch.no_grad()
    def sample(self, prime: Text = "", length: int = 200, temperature: float = 0.0,
               seed: int = 1) -> Sample:
        """`length` symbols after `prime`. temperature 0: the most probable symbol every step
        (`mrnn sample --greedy`; of equally probable ones the lowest id). Otherwise each symbol
        is drawn from softmax(log p / temperature) with a torch.Generator seeded by `seed`
        (reproducible here, not the same draws as `mrnn sample --seed`)."""
        if length < 1:
            raise ValueError(f"length must be at least 1, not {length}")
        if temperature < 0:
            raise ValueError(f"temperature must be 0 (greedy) or positive, not {temperature}")
        generator = torch.Generator().manual_seed(int(seed))
        prime_bytes = prime.encode("utf-8") if isinstance(prime, str) else bytes(prime)
        line_start = not prime_bytes or prime_bytes.endswith(b"\n")
        logp, state = self.forward(torch.tensor(self.prime_ids(prime), dtype=torch.long,
                                                device=self.device).unsqueeze(1))
        row = logp[-1, 0].cpu()
        ids, pieces, logps = [], [], []
        text = bytearray()
        while True:
            if temperature == 0:
                symbol = int(torch.nonzero(row == row.max())[0, 0])  # the first maximum
            else:
                weights = torch.softmax(row.double() / temperature, dim=-1)
                symbol = int(torch.multinomial(weights, 1, generator=generator))
            piece = self.vocabulary.piece(symbol, line_start)
            line_start = self.vocabulary.level == "word" and symbol == self.vocabulary.eos_id
            ids.append(symbol)
            pieces.append(piece.decode("utf-8", errors="replace"))
            logps.append(float(row[symbol]))
            text += piece
            if len(ids) >= length:
                break
            logp, state = self.forward(torch.tensor([[symbol]], device=self.device), state)
            row = logp[-1, 0].cpu()
        return Sample(text=bytes(text).decode("utf-8", errors="replace"), ids=ids, pieces=pieces,
                      log_probabilities=logps)
