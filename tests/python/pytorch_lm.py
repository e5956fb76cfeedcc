"""A PyTorch word language model as people write them, for the import tests.

make: trains an embedding + torch.nn.LSTM/RNN + linear decoder (the shape of PyTorch's word
language model example) for a few steps on a small corpus, saves its state dict, its
vocabulary and its own log-probabilities of a held-out text.
compare: checks `mrnn score --json` against those log-probabilities.
"""
import argparse
import json
import math
import os
import sys

import torch

CORPUS = """the cat sat on the mat
the dog sat on the log
a cat and a dog met on the mat
the bird sat on the cat and the dog ran
"""
HELD_OUT = "the dog sat on the mat\na bird and a cat ran on the log\n"


def words_of(text):
    for line in text.splitlines(keepends=True):
        yield from line.split()
        yield "<eos>"


class WordModel(torch.nn.Module):
    def __init__(self, kind, vocab, emb, hidden, layers):
        super().__init__()
        self.encoder = torch.nn.Embedding(vocab, emb)
        cls = {"lstm": torch.nn.LSTM, "rnn": torch.nn.RNN, "gru": torch.nn.GRU}[kind]
        self.rnn = cls(emb, hidden, layers)
        self.decoder = torch.nn.Linear(hidden, vocab)

    def forward(self, ids):
        out, _ = self.rnn(self.encoder(ids))
        return torch.log_softmax(self.decoder(out), dim=-1)


def make(args):
    torch.manual_seed(7)
    os.makedirs(args.out, exist_ok=True)
    vocab = []
    for w in words_of(CORPUS):
        if w not in vocab:
            vocab.append(w)
    index = {w: i for i, w in enumerate(vocab)}
    model = WordModel(args.kind, len(vocab), 12, 10, args.layers)
    ids = torch.tensor([index[w] for w in words_of(CORPUS)]).unsqueeze(1)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for _ in range(args.steps):
        opt.zero_grad()
        loss = -model(ids[:-1]).gather(2, ids[1:].unsqueeze(2)).mean()
        loss.backward()
        opt.step()
    model.eval()
    state = model.state_dict()
    if args.rename:  # names PyTorch users pick that the shapes alone cannot tell apart
        state = {k.replace("encoder.", "emb_table.").replace("decoder.", "head."): v
                 for k, v in state.items()}
        del state["head.bias"]
        model.decoder.bias.data.zero_()
    torch.save(state, os.path.join(args.out, "model.pt"))
    with open(os.path.join(args.out, "vocab.txt"), "w") as f:
        f.write("".join(w + "\n" for w in vocab))
    with open(os.path.join(args.out, "corpus.txt"), "w") as f:
        f.write(CORPUS)
    with open(os.path.join(args.out, "heldout.txt"), "w") as f:
        f.write(HELD_OUT)
    held = torch.tensor([index[w] for w in words_of(HELD_OUT)]).unsqueeze(1)
    with torch.no_grad():
        logp = model(held[:-1]).gather(2, held[1:].unsqueeze(2)).flatten()
    with open(os.path.join(args.out, "expected.json"), "w") as f:
        json.dump({"words": list(words_of(HELD_OUT)), "logp": logp.tolist()}, f)


def compare(args):
    expected = json.load(open(args.expected))
    score = json.load(open(args.score))
    got = [s for s in score["symbols"] if s.get("bits") is not None]
    if len(got) != len(expected["logp"]):
        sys.exit(f"mrnn scored {len(got)} symbols, PyTorch {len(expected['logp'])}")
    worst = 0.0
    for i, (s, lp) in enumerate(zip(got, expected["logp"])):
        mine = -s["bits"] * math.log(2)
        worst = max(worst, abs(mine - lp))
        if abs(mine - lp) > 1e-5:
            sys.exit(f"symbol {i + 1} ({expected['words'][i + 1]!r}): mrnn log p {mine:.8f}, "
                     f"PyTorch {lp:.8f}")
    print(f"{len(got)} symbols agree with PyTorch; worst difference {worst:.2e} nats")


parser = argparse.ArgumentParser()
sub = parser.add_subparsers(dest="command", required=True)
m = sub.add_parser("make")
m.add_argument("--kind", default="lstm")
m.add_argument("--layers", type=int, default=1)
m.add_argument("--steps", type=int, default=30)
m.add_argument("--rename", action="store_true")
m.add_argument("--out", required=True)
c = sub.add_parser("compare")
c.add_argument("expected")
c.add_argument("score")
args = parser.parse_args()
make(args) if args.command == "make" else compare(args)
