"""The output layers: the top layer's output h [..., H] to next-symbol log-probabilities.

Tied heads (output.tied) have no output matrix of their own: the model hands them the input
embedding [V, E] at every call, so that the state dict lists it once, as ``input.embedding``.
"""

import torch
from torch import nn


class SoftmaxOutput(nn.Module):
    """log softmax(W h + b); tied, W is the input embedding (then H = E)."""

    def __init__(self, input_size: int, vocab: int, tied: bool):
        super().__init__()
        self.tied = tied
        if not tied:
            self.W = nn.Parameter(torch.zeros(vocab, input_size))
        self.b = nn.Parameter(torch.zeros(vocab))

    def extra_repr(self) -> str:
        return f"vocabulary={self.b.shape[0]}" + (", tied" if self.tied else "")

    def forward(self, h: torch.Tensor, embedding: torch.Tensor = None) -> torch.Tensor:
        weight = embedding if self.tied else self.W
        return torch.log_softmax(h @ weight.t() + self.b, dim=-1)


class MixtureOfSoftmaxes(nn.Module):
    """Mixture of Softmaxes (Yang et al. 2017), in log space:
    pi = softmax(W_prior h)                     K mixture weights, no bias
    g_k = tanh(W_latent,k h + b_latent,k)       K latent vectors of width L
    p(y | h) = sum_k pi_k softmax(W_out g_k + b_out)
    W_latent [K*L, H] stacks the K latent maps; tied, W_out is the input embedding and L = E."""

    def __init__(self, input_size: int, vocab: int, mixtures: int, latent_size: int, tied: bool):
        super().__init__()
        self.mixtures = mixtures
        self.latent_size = latent_size
        self.tied = tied
        self.W_prior = nn.Parameter(torch.zeros(mixtures, input_size))
        self.W_latent = nn.Parameter(torch.zeros(mixtures * latent_size, input_size))
        self.b_latent = nn.Parameter(torch.zeros(mixtures * latent_size))
        if not tied:
            self.W_out = nn.Parameter(torch.zeros(vocab, latent_size))
        self.b_out = nn.Parameter(torch.zeros(vocab))

    def extra_repr(self) -> str:
        return (f"vocabulary={self.b_out.shape[0]}, mixtures={self.mixtures}, "
                f"latent={self.latent_size}" + (", tied" if self.tied else ""))

    def forward(self, h: torch.Tensor, embedding: torch.Tensor = None) -> torch.Tensor:
        out_weight = embedding if self.tied else self.W_out
        log_prior = torch.log_softmax(h @ self.W_prior.t(), dim=-1)  # [..., K]
        latent = torch.tanh(h @ self.W_latent.t() + self.b_latent)
        latent = latent.reshape(*h.shape[:-1], self.mixtures, self.latent_size)  # [..., K, L]
        log_components = torch.log_softmax(latent @ out_weight.t() + self.b_out, dim=-1)
        return torch.logsumexp(log_components + log_prior.unsqueeze(-1), dim=-2)  # [..., V]
