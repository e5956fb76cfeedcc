#!/usr/bin/env python3
"""Checks an `mrnn export` file against mrnn's own figures for the same checkpoint.

usage: check_export.py MODEL --score SCORE.json [--text TEXTFILE] [--sample SAMPLE.json]
                       [--tolerance 1e-5]

SCORE.json is what `mrnn score <project.yaml> --checkpoint CKPT --file TEXTFILE --json`
prints; SAMPLE.json what `mrnn sample <project.yaml> --checkpoint CKPT --prime P --greedy
--length N --json` prints. The checks:
- the package reads TEXTFILE as the same ids (when --text is given);
- the log-probability of every predicted symbol equals mrnn's to the tolerance (natural
  log; mrnn writes bits, -log2 p, to 10 significant digits), and so do the totals;
- every symbol of mrnn's greedy sample is the most probable one under the package's model
  given the prime and the symbols before it, with mrnn's probability;
- the package's own greedy sample from the same prime is mrnn's, symbol for symbol, and so is
  its text. Where two symbols are equally probable to the tolerance, float32 and float64 may
  break the tie differently: the comparison stops there with a note, and does not fail.

The model runs in float64 here, the accurate side of the comparison (mrnn scores in float32).
Exit status 0 when everything matches, 1 at the first mismatch (its position named), 2 when a
file cannot be read.
"""

import argparse
import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mrnn_workbench  # noqa: E402  (the package beside this folder)

LN2 = math.log(2.0)


class Mismatch(Exception):
    pass


def shown(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def read_json(path: str, what: str) -> dict:
    try:
        with open(path, "rb") as f:
            return json.loads(f.read().decode("utf-8"))
    except (OSError, ValueError) as error:
        print(f"check_export: cannot read the {what} JSON {path}: {error}", file=sys.stderr)
        sys.exit(2)


def check_score(model, score: dict, text_path, tolerance: float) -> str:
    symbols = score["symbols"]
    ids = [int(s["id"]) for s in symbols]
    vocabulary = model.vocabulary
    if text_path is not None:
        with open(text_path, "rb") as f:
            ours = vocabulary.encode(f.read())
        for position, (a, b) in enumerate(zip(ours, ids)):
            if a != b:
                raise Mismatch(f"score: symbol {position} of {text_path}: the package reads id {a} "
                               f"({shown(vocabulary.symbol(a))}), mrnn id {b} "
                               f"({shown(symbols[position]['text'])})")
        if len(ours) != len(ids):
            raise Mismatch(f"score: the package reads {len(ours)} symbols from {text_path}, "
                           f"mrnn {len(ids)}")
    for position, s in enumerate(symbols):
        if vocabulary.level != "byte" and vocabulary.symbol(ids[position]) != s["text"]:
            raise Mismatch(f"score: symbol {position}: id {ids[position]} is "
                           f"{shown(vocabulary.symbol(ids[position]))} in the export's vocabulary, "
                           f"{shown(s['text'])} in mrnn's")
    if symbols and symbols[0]["bits"] is not None:
        raise Mismatch("score: mrnn predicted the first symbol (scored with --context?); "
                       "score without a context")
    if len(ids) < 2:
        return "score: fewer than 2 symbols, nothing predicted"
    logp = model.log_probabilities(ids[:-1])
    ours = logp.gather(1, torch.tensor(ids[1:]).unsqueeze(1)).squeeze(1).tolist()
    worst, worst_at = 0.0, None
    for position in range(1, len(ids)):
        bits = symbols[position]["bits"]
        if bits is None:
            raise Mismatch(f"score: symbol {position} ({shown(symbols[position]['text'])}) has "
                           f"no bits in mrnn's JSON")
        theirs = -float(bits) * LN2
        mine = ours[position - 1]
        error = abs(mine - theirs)
        if not error <= tolerance:  # also catches NaN
            raise Mismatch(f"score: symbol {position} ({shown(symbols[position]['text'])}, id "
                           f"{ids[position]}): log p = {mine:.9f} here, {theirs:.9f} in mrnn "
                           f"(difference {error:.3g} > {tolerance:g})")
        if error >= worst:
            worst, worst_at = error, position
    total_bits = -sum(ours) / LN2
    predicted = len(ids) - 1
    for key, mine, scale in (("total_bits", total_bits, predicted),
                             ("bits_per_symbol", total_bits / predicted, 1)):
        theirs = float(score[key])
        if not abs(mine - theirs) <= tolerance * scale / LN2 + 1e-9 * abs(theirs):
            raise Mismatch(f"score: {key} is {mine:.9f} here, {theirs:.9f} in mrnn")
    if int(score["predicted_symbols"]) != predicted:
        raise Mismatch(f"score: mrnn predicted {score['predicted_symbols']} symbols, "
                       f"the package {predicted}")
    return (f"score: {predicted} symbols match, worst |difference| {worst:.2e} nats "
            f"(symbol {worst_at}), {total_bits / predicted:.6f} bits/symbol")


def check_sample(model, sample: dict, tolerance: float) -> str:
    completion = sample["completions"][0]
    theirs = [int(s["id"]) for s in completion["symbols"]]
    prime = sample["prime"]
    vocabulary = model.vocabulary
    if not theirs:
        raise Mismatch("sample: mrnn's completion has no symbols")
    # Every symbol of mrnn's sample read after the prime and mrnn's symbols before it.
    context = model.prime_ids(prime) + theirs[:-1]
    rows = model.log_probabilities(context)[-len(theirs):]
    for k, symbol in enumerate(theirs):
        row = rows[k]
        best = int(torch.argmax(row))
        if float(row[best] - row[symbol]) > tolerance:
            raise Mismatch(
                f"sample: symbol {k} after the prime {shown(prime)}: mrnn chose id {symbol} "
                f"({shown(vocabulary.symbol(symbol))}, log p {float(row[symbol]):.7f} here) but "
                f"the most probable here is id {best} ({shown(vocabulary.symbol(best))}, log p "
                f"{float(row[best]):.7f})")
        reported = float(completion["symbols"][k]["probability"])
        mine = math.exp(float(row[symbol]))
        if not abs(mine - reported) <= tolerance:
            raise Mismatch(f"sample: symbol {k} ({shown(vocabulary.symbol(symbol))}): probability "
                           f"{mine:.8f} here, {reported:.8f} in mrnn")
    # The package's own greedy sample.
    ours = model.sample(prime, length=len(theirs), temperature=0.0)
    for k, (a, b) in enumerate(zip(ours.ids, theirs)):
        if a != b:
            row = rows[k]
            if abs(float(row[a] - row[b])) <= tolerance:
                return (f"sample: the first {k} of {len(theirs)} symbols match; at symbol {k} "
                        f"{shown(vocabulary.symbol(a))} and {shown(vocabulary.symbol(b))} tie to "
                        f"{tolerance:g} and the two break the tie differently")
            raise Mismatch(f"sample: symbol {k} after the prime {shown(prime)}: the package "
                           f"chose id {a} ({shown(vocabulary.symbol(a))}), mrnn id {b} "
                           f"({shown(vocabulary.symbol(b))})")
    if vocabulary.level != "byte" and ours.text != completion["text"]:
        raise Mismatch(f"sample: the same symbols make the text {shown(ours.text)} here, "
                       f"{shown(completion['text'])} in mrnn")
    return f"sample: greedy, all {len(theirs)} symbols match: {shown(ours.text)}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model", help="the file mrnn export wrote (pt or safetensors)")
    parser.add_argument("--score", required=True, help="mrnn score --json output")
    parser.add_argument("--text", help="the text file that was scored")
    parser.add_argument("--sample", help="mrnn sample --greedy --json output")
    parser.add_argument("--tolerance", type=float, default=1e-5,
                        help="largest difference allowed, in nats (default 1e-5)")
    args = parser.parse_args()
    try:
        model = mrnn_workbench.load(args.model, dtype=torch.float64)
    except (OSError, ValueError) as error:
        print(f"check_export: {error}", file=sys.stderr)
        return 2
    score = read_json(args.score, "score")
    sample = read_json(args.sample, "sample") if args.sample else None
    print(f"{args.model}: " + ", ".join(
        f"{name} {list(value.shape)}" for name, value in model.state_dict().items()))
    try:
        with torch.no_grad():
            print(check_score(model, score, args.text, args.tolerance))
            if sample is not None:
                print(check_sample(model, sample, args.tolerance))
    except Mismatch as mismatch:
        print(f"MISMATCH: {mismatch}")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
