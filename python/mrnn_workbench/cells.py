"""The recurrent cells of the model zoo, one class per cell, as docs/cells.md states them.

A readable reference, not a fast one: every cell computes one time step from the layer's
input ``x`` [B, I], the model's input vectors ``e`` [B, E] (read only by the Major-Minor
LSTM's minor half) and the previous state, a tuple of [B, H] tensors (``(h,)`` or
``(h, c)``). Parameter names and shapes are the engine's (engine/models/), so a state dict
exported by ``mrnn export`` loads as it is. Recurrent weights keep their ``[G, R, C]`` shape
(G blocks of R rows); weight normalisation is already folded into them by the exporter, and
there is no dropout: these cells only evaluate.

Notation: ``s`` is the logistic sigmoid, ``*`` the elementwise product, ``W x`` a matrix
product. Every affine map from the input carries a bias; products with ``h`` or ``m`` carry
none.
"""

from typing import Dict, Tuple

import torch
from torch import nn

State = Tuple[torch.Tensor, ...]

# The layer keys each cell reads (for printing a model).
_LSTM_KEYS = ("output_gate",)
_USED = {
    "mrnn": ("m_size", "bias"), "gru": ("reset_after",), "lstm": _LSTM_KEYS, "mlstm": ("m_size",) + _LSTM_KEYS,
    "tmlstm": ("m_size",) + _LSTM_KEYS, "mgru": ("m_size",), "tmgru": ("m_size",),
    "mogrifier": ("rounds", "rank", "zigzag") + _LSTM_KEYS,
    "mmlstm": ("major_size", "minor_size", "minor_input") + _LSTM_KEYS, "milstm": _LSTM_KEYS,
}


def _linear(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor = None) -> torch.Tensor:
    """x W^T (+ b) for a [rows, cols] weight, or a [G, R, C] weight stacked as [G*R, C]."""
    if weight.dim() == 3:
        weight = weight.reshape(-1, weight.shape[-1])
    out = x @ weight.t()
    return out if bias is None else out + bias


class Cell(nn.Module):
    """A layer of the zoo: ``step(x, e, state) -> (h, state)``.

    ``spec`` is the layer's entry of the exported model description (type, hidden_size,
    m_size, output_gate, rounds, rank, zigzag, major_size, minor_size, minor_input, bias).
    """

    state_parts = 1  # (h,) ; LSTM-family cells carry (h, c)

    def __init__(self, spec: Dict, input_size: int, embedding_size: int):
        super().__init__()
        self.spec = dict(spec)
        self.input_size = input_size
        self.embedding_size = embedding_size
        self.hidden_size = int(spec["hidden_size"])
        self.m_size = int(spec.get("m_size") or self.hidden_size)

    @property
    def output_size(self) -> int:
        return self.hidden_size

    def extra_repr(self) -> str:
        keys = ", ".join(f"{k}={self.spec[k]}" for k in ("m_size", "output_gate", "rounds", "rank",
                                                          "zigzag", "major_size", "minor_size",
                                                          "minor_input", "bias", "reset_after")
                         if k in self.spec and k in _USED.get(self.spec["type"], ()))
        return f"input={self.input_size}, hidden={self.hidden_size}" + (", " + keys if keys else "")

    def _parameter(self, name: str, *shape: int) -> None:
        self.register_parameter(name, nn.Parameter(torch.zeros(*shape)))

    def initial_state(self, batch: int, dtype=torch.float32, device=None) -> State:
        return tuple(torch.zeros(batch, self.hidden_size, dtype=dtype, device=device)
                     for _ in range(self.state_parts))

    def step(self, x: torch.Tensor, e: torch.Tensor, state: State):
        raise NotImplementedError


def lstm_update(pre: torch.Tensor, c: torch.Tensor, output_gate: str):
    """Krause eqs. 12-16 from the four stacked pre-activations (gate order i, f, o, j):
    c_t = f * c + i * j;  h_t = o * tanh(c_t), or tanh(o * c_t) with output_gate: inside."""
    pre_i, pre_f, pre_o, pre_j = pre.chunk(4, dim=-1)
    i, f, o = torch.sigmoid(pre_i), torch.sigmoid(pre_f), torch.sigmoid(pre_o)
    j = torch.tanh(pre_j)
    c = f * c + i * j
    h = o * torch.tanh(c) if output_gate == "outside" else torch.tanh(o * c)
    return h, c


def gru_update(z: torch.Tensor, h: torch.Tensor, j: torch.Tensor) -> torch.Tensor:
    """h_t = (1 - z) * h + z * j."""
    return (1 - z) * h + z * j


class RnnCell(Cell):
    """Elman RNN (Sutskever et al. 2011, eq. 1):  h_t = tanh(W_hx x + W_hh h + b)."""

    def __init__(self, spec, input_size, embedding_size):
        super().__init__(spec, input_size, embedding_size)
        H, I = self.hidden_size, input_size
        self._parameter("W_hx", H, I)
        self._parameter("b", H)
        self._parameter("W_hh", 1, H, H)

    def step(self, x, e, state):
        (h,) = state
        h = torch.tanh(_linear(x, self.W_hx, self.b) + _linear(h, self.W_hh))
        return h, (h,)


class MrnnCell(Cell):
    """Multiplicative RNN (Sutskever eqs. 7-8):
    m_t = (W_mx x) * (W_mh h);  h_t = tanh(W_hm m_t + W_hx x [+ b with bias: true])."""

    def __init__(self, spec, input_size, embedding_size):
        super().__init__(spec, input_size, embedding_size)
        H, F, I = self.hidden_size, self.m_size, input_size
        self._parameter("W_mx", F, I)
        self._parameter("W_hx", H, I)
        self.has_bias = bool(spec.get("bias", False))
        if self.has_bias:
            self._parameter("b", H)
        self._parameter("W_mh", 1, F, H)
        self._parameter("W_hm", 1, H, F)

    def step(self, x, e, state):
        (h,) = state
        m = _linear(x, self.W_mx) * _linear(h, self.W_mh)
        h = torch.tanh(_linear(m, self.W_hm) + _linear(x, self.W_hx, self.b if self.has_bias else None))
        return h, (h,)


class LstmCell(Cell):
    """LSTM (Krause eqs. 11-16):  [i f o j] = W_x x + W_h h + b, then lstm_update."""

    state_parts = 2

    def __init__(self, spec, input_size, embedding_size):
        super().__init__(spec, input_size, embedding_size)
        H, I = self.hidden_size, input_size
        self._parameter("W_x", 4 * H, I)
        self._parameter("b", 4 * H)
        self._parameter("W_h", 4, H, H)

    def step(self, x, e, state):
        h, c = state
        pre = _linear(x, self.W_x, self.b) + _linear(h, self.W_h)
        h, c = lstm_update(pre, c, self.spec["output_gate"])
        return h, (h, c)


class MlstmCell(Cell):
    """Multiplicative LSTM (Krause eqs. 17-21):
    m_t = (W_mx x) * (W_mh h);  [i f o j] = W_x x + W_m m_t + b, then lstm_update."""

    state_parts = 2

    def __init__(self, spec, input_size, embedding_size):
        super().__init__(spec, input_size, embedding_size)
        H, M, I = self.hidden_size, self.m_size, input_size
        self._parameter("W_mx", M, I)
        self._parameter("W_x", 4 * H, I)
        self._parameter("b", 4 * H)
        self._parameter("W_mh", 1, M, H)
        self._parameter("W_m", 4, H, M)

    def step(self, x, e, state):
        h, c = state
        m = _linear(x, self.W_mx) * _linear(h, self.W_mh)
        pre = _linear(x, self.W_x, self.b) + _linear(m, self.W_m)
        h, c = lstm_update(pre, c, self.spec["output_gate"])
        return h, (h, c)


class TmlstmCell(Cell):
    """True mLSTM (Maupome & Meurs eqs. 14-17), one intermediate state per gate g in i f o j:
    m_g = (W_mx,g x) * (W_mh,g h);  pre_g = U_g x + V_g m_g + b_g, then lstm_update.
    W_mx [4M, I] and W_mh [4, M, H] list the gates' blocks in order; V is [4, H, M]."""

    state_parts = 2

    def __init__(self, spec, input_size, embedding_size):
        super().__init__(spec, input_size, embedding_size)
        H, M, I = self.hidden_size, self.m_size, input_size
        self._parameter("W_mx", 4 * M, I)
        self._parameter("W_x", 4 * H, I)
        self._parameter("b", 4 * H)
        self._parameter("W_mh", 4, M, H)
        self._parameter("V", 4, H, M)

    def step(self, x, e, state):
        h, c = state
        M = self.m_size
        mx = _linear(x, self.W_mx)
        ux = _linear(x, self.W_x, self.b).chunk(4, dim=-1)
        pre = []
        for g in range(4):
            m_g = mx[:, g * M:(g + 1) * M] * _linear(h, self.W_mh[g])
            pre.append(ux[g] + _linear(m_g, self.V[g]))
        h, c = lstm_update(torch.cat(pre, dim=-1), c, self.spec["output_gate"])
        return h, (h, c)


class GruCell(Cell):
    """GRU (Maupome & Meurs eqs. 18-21):
    z = s(U_z x + W_z h + b_z);  r = s(U_r x + W_r h + b_r);
    j = tanh(U_h x + W_h (r * h) + b_h);  h_t = (1 - z) * h + z * j.
    W_x [3H, I] stacks U_z, U_r, U_h; W_zr [2, H, H] stacks W_z, W_r.
    With reset_after (PyTorch's and cuDNN's form): j = tanh(U_h x + b_h + r * (W_h h + b_hh))."""

    def __init__(self, spec, input_size, embedding_size):
        super().__init__(spec, input_size, embedding_size)
        H, I = self.hidden_size, input_size
        self.reset_after = bool(spec.get("reset_after", False))
        self._parameter("W_x", 3 * H, I)
        self._parameter("b", 3 * H)
        self._parameter("W_zr", 2, H, H)
        self._parameter("W_h", 1, H, H)
        if self.reset_after:
            self._parameter("b_hh", H)

    def step(self, x, e, state):
        (h,) = state
        ux_z, ux_r, ux_h = _linear(x, self.W_x, self.b).chunk(3, dim=-1)
        z = torch.sigmoid(ux_z + _linear(h, self.W_zr[0]))
        r = torch.sigmoid(ux_r + _linear(h, self.W_zr[1]))
        if self.reset_after:
            j = torch.tanh(ux_h + r * _linear(h, self.W_h, self.b_hh))
        else:
            j = torch.tanh(ux_h + _linear(r * h, self.W_h))
        h = gru_update(z, h, j)
        return h, (h,)


class MgruCell(Cell):
    """mGRU with a shared intermediate state (Maupome & Meurs eqs. 25-27):
    m_t = (W_mx x) * (W_mh h);  z = s(U_z x + V_z m_t + b_z)  (width H);
    r = s(U_r x + V_r m_t + b_r)  (width M);  j = tanh(U_h x + V_h (r * m_t) + b_h);
    h_t = (1 - z) * h + z * j.  W_x [2H+M, I] has the rows z [H], r [M], j [H]."""

    def __init__(self, spec, input_size, embedding_size):
        super().__init__(spec, input_size, embedding_size)
        H, M, I = self.hidden_size, self.m_size, input_size
        self._parameter("W_mx", M, I)
        self._parameter("W_x", 2 * H + M, I)
        self._parameter("b", 2 * H + M)
        self._parameter("W_mh", 1, M, H)
        self._parameter("V_z", 1, H, M)
        self._parameter("V_r", 1, M, M)
        self._parameter("V_h", 1, H, M)

    def step(self, x, e, state):
        (h,) = state
        H, M = self.hidden_size, self.m_size
        m = _linear(x, self.W_mx) * _linear(h, self.W_mh)
        ux = _linear(x, self.W_x, self.b)
        ux_z, ux_r, ux_h = ux[:, :H], ux[:, H:H + M], ux[:, H + M:]
        z = torch.sigmoid(ux_z + _linear(m, self.V_z))
        r = torch.sigmoid(ux_r + _linear(m, self.V_r))
        j = torch.tanh(ux_h + _linear(r * m, self.V_h))
        h = gru_update(z, h, j)
        return h, (h,)


class TmgruCell(Cell):
    """True mGRU (Maupome & Meurs eqs. 22-24, with eq. 23's bracket where it belongs):
    m_z = (W_mx,z x) * (W_mh,z h);  z = s(U_z x + V_z m_z + b_z);
    m_r = (W_mx,r x) * (W_mh,r h);  r = s(U_r x + V_r m_r + b_r);
    m_h = (W_mx,h x) * (W_mh,h (r * h));  j = tanh(U_h x + V_h m_h + b_h);
    h_t = (1 - z) * h + z * j.
    W_mx [3M, I] rows z, r, h; W_x [3H, I] rows z, r, j; W_mh_zr [2, M, H]; W_mh_h [1, M, H];
    V [3, H, M] holds V_z, V_r, V_h."""

    def __init__(self, spec, input_size, embedding_size):
        super().__init__(spec, input_size, embedding_size)
        H, M, I = self.hidden_size, self.m_size, input_size
        self._parameter("W_mx", 3 * M, I)
        self._parameter("W_x", 3 * H, I)
        self._parameter("b", 3 * H)
        self._parameter("W_mh_zr", 2, M, H)
        self._parameter("W_mh_h", 1, M, H)
        self._parameter("V", 3, H, M)

    def step(self, x, e, state):
        (h,) = state
        mx_z, mx_r, mx_h = _linear(x, self.W_mx).chunk(3, dim=-1)
        ux_z, ux_r, ux_h = _linear(x, self.W_x, self.b).chunk(3, dim=-1)
        m_z = mx_z * _linear(h, self.W_mh_zr[0])
        m_r = mx_r * _linear(h, self.W_mh_zr[1])
        z = torch.sigmoid(ux_z + _linear(m_z, self.V[0]))
        r = torch.sigmoid(ux_r + _linear(m_r, self.V[1]))
        m_h = mx_h * _linear(r * h, self.W_mh_h)
        j = torch.tanh(ux_h + _linear(m_h, self.V[2]))
        h = gru_update(z, h, j)
        return h, (h,)


class MogrifierCell(Cell):
    """Mogrifier LSTM (Melis et al. 2019, eqs. 1-2), for i = 1..rounds:
    odd i:  x^i = 2 s(Q^i h^{i-1}) * x^{i-2}   (x^{-1} = x)
    even i: h^i = 2 s(R^i x^{i-1}) * h^{i-2}   (h^0 = h)
    then the LSTM step on the last x^i and h^i. Q^i is [I, H] and R^i [H, I]; with rank k > 0
    each is a product left [., k] x right [k, .] (names Q1_left, Q1_right, ...). zigzag: false
    (the paper's ablation) gates every round with the original h or x instead."""

    state_parts = 2

    def __init__(self, spec, input_size, embedding_size):
        super().__init__(spec, input_size, embedding_size)
        H, I = self.hidden_size, input_size
        self.rounds = int(spec["rounds"])
        self.rank = int(spec["rank"])
        self.zigzag = bool(spec["zigzag"])
        self._parameter("W_x", 4 * H, I)
        self._parameter("b", 4 * H)
        self._parameter("W_h", 4, H, H)
        for i in range(1, self.rounds + 1):
            name, rows, cols = (f"Q{i}", I, H) if i % 2 == 1 else (f"R{i}", H, I)
            if self.rank > 0:
                self._parameter(name + "_left", rows, self.rank)
                self._parameter(name + "_right", self.rank, cols)
            else:
                self._parameter(name, rows, cols)

    def _round_matrix(self, i: int) -> torch.Tensor:
        name = f"Q{i}" if i % 2 == 1 else f"R{i}"
        if self.rank > 0:
            return getattr(self, name + "_left") @ getattr(self, name + "_right")
        return getattr(self, name)

    def step(self, x, e, state):
        h, c = state
        x0, h0 = x, h
        for i in range(1, self.rounds + 1):
            if i % 2 == 1:
                x = 2 * torch.sigmoid(_linear(h if self.zigzag else h0, self._round_matrix(i))) * x
            else:
                h = 2 * torch.sigmoid(_linear(x if self.zigzag else x0, self._round_matrix(i))) * h
        pre = _linear(x, self.W_x, self.b) + _linear(h, self.W_h)
        h, c = lstm_update(pre, c, self.spec["output_gate"])
        return h, (h, c)


class MajorMinorLstmCell(Cell):
    """Major-Minor LSTM (Shuang et al. 2020, eqs. 21-22): two independent LSTMs side by side.
    The major LSTM (major_size units) reads the layer below; the minor LSTM (minor_size units)
    reads the model's input vectors (minor_input: embedding, MMLM-1) or the layer below
    (minor_input: below, MMLM-2). h_t = [h_major, h_minor], and c likewise."""

    state_parts = 2

    def __init__(self, spec, input_size, embedding_size):
        super().__init__(spec, input_size, embedding_size)
        self.major = int(spec["major_size"])
        self.minor = int(spec["minor_size"])
        if self.major + self.minor != self.hidden_size:
            raise ValueError(f"mmlstm: major_size {self.major} + minor_size {self.minor} is not "
                             f"hidden_size {self.hidden_size}")
        self.minor_reads_below = spec["minor_input"] == "below"
        self._parameter("W_x_major", 4 * self.major, input_size)
        self._parameter("b_major", 4 * self.major)
        self._parameter("W_h_major", 4, self.major, self.major)
        if self.minor > 0:
            minor_input = input_size if self.minor_reads_below else embedding_size
            self._parameter("W_x_minor", 4 * self.minor, minor_input)
            self._parameter("b_minor", 4 * self.minor)
            self._parameter("W_h_minor", 4, self.minor, self.minor)

    def step(self, x, e, state):
        h, c = state
        gate = self.spec["output_gate"]
        n = self.major
        pre = _linear(x, self.W_x_major, self.b_major) + _linear(h[:, :n], self.W_h_major)
        h_major, c_major = lstm_update(pre, c[:, :n], gate)
        if self.minor == 0:
            return h_major, (h_major, c_major)
        source = x if self.minor_reads_below else e
        pre = _linear(source, self.W_x_minor, self.b_minor) + _linear(h[:, n:], self.W_h_minor)
        h_minor, c_minor = lstm_update(pre, c[:, n:], gate)
        h = torch.cat([h_major, h_minor], dim=-1)
        return h, (h, torch.cat([c_major, c_minor], dim=-1))


class MilstmCell(Cell):
    """Multiplicative-integration LSTM (Wu et al. 2016), for each gate g in i f o j:
    pre_g = alpha_g * (W_x x)_g * (W_h h)_g + beta1_g * (W_h h)_g + beta2_g * (W_x x)_g + b_g,
    then lstm_update."""

    state_parts = 2

    def __init__(self, spec, input_size, embedding_size):
        super().__init__(spec, input_size, embedding_size)
        H, I = self.hidden_size, input_size
        self._parameter("W_x", 4 * H, I)
        self._parameter("b", 4 * H)
        self._parameter("alpha", 4 * H)
        self._parameter("beta1", 4 * H)
        self._parameter("beta2", 4 * H)
        self._parameter("W_h", 4, H, H)

    def step(self, x, e, state):
        h, c = state
        wx = _linear(x, self.W_x)
        uh = _linear(h, self.W_h)
        pre = self.alpha * wx * uh + self.beta1 * uh + self.beta2 * wx + self.b
        h, c = lstm_update(pre, c, self.spec["output_gate"])
        return h, (h, c)


CELLS = {
    "rnn": RnnCell,
    "mrnn": MrnnCell,
    "lstm": LstmCell,
    "mlstm": MlstmCell,
    "tmlstm": TmlstmCell,
    "gru": GruCell,
    "mgru": MgruCell,
    "tmgru": TmgruCell,
    "mogrifier": MogrifierCell,
    "mmlstm": MajorMinorLstmCell,
    "milstm": MilstmCell,
}


def make_cell(spec: Dict, input_size: int, embedding_size: int) -> Cell:
    """The cell that `spec["type"]` names, reading `input_size`-wide inputs; `embedding_size`
    is the width of the model's input vectors (what a Major-Minor minor LSTM may read)."""
    kind = spec.get("type")
    if kind not in CELLS:
        raise ValueError(f"unknown cell type {kind!r}; the zoo has {', '.join(CELLS)}")
    return CELLS[kind](spec, input_size, embedding_size)
