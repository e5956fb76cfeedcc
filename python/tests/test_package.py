"""The package on its own, without mrnn: vocabulary rules, safetensors, file round trips and
refusals, and identities the cells must satisfy (docs/cells.md). The comparison with mrnn
itself is check_export.py's (tests/python/export_matches_python.sh).

Run: python3 -m unittest discover -s python/tests
"""

import json
import os
import struct
import sys
import tempfile
import unittest

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mrnn_workbench as mw  # noqa: E402
from mrnn_workbench.vocabulary import Vocabulary  # noqa: E402


def layer(kind, hidden=6, **keys):
    spec = {"type": kind, "hidden_size": hidden, "m_size": hidden, "output_gate": "outside",
            "rounds": 3, "rank": 2, "zigzag": True, "major_size": hidden - 2, "minor_size": 2,
            "minor_input": "embedding", "bias": False}
    spec.update(keys)
    return spec


def document(layers, embedding=4, output=None, symbols="\n .abc", level="char"):
    output = output or {"kind": "softmax", "tied": False, "mixtures": 2, "latent_size": 5}
    vocabulary = {"level": level}
    if level != "byte":
        vocabulary["symbols"] = list(symbols) if level == "char" else symbols
    return {"format": "mrnn-workbench-model", "version": 1,
            "model": {"input": {"level": level, "embedding_size": embedding},
                      "layers": layers, "output": output},
            "vocabulary": vocabulary}


def random_model(doc, seed=0):
    model = mw.build_model(doc).double()
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.copy_(torch.randn(parameter.shape, generator=generator,
                                        dtype=torch.float64) * 0.5)
    return model


class VocabularyTest(unittest.TestCase):
    def test_char_level_reads_code_points(self):
        v = Vocabulary("char", ["a", "é", "\n", " "])
        self.assertEqual(v.encode("aé a\n"), [0, 1, 3, 0, 2])
        self.assertEqual(v.decode([1, 0, 2]), "éa\n")
        with self.assertRaisesRegex(ValueError, r"symbol 'z' at byte 3 is not in the vocabulary"):
            v.encode("aéz")
        with self.assertRaisesRegex(ValueError, "invalid UTF-8 at byte 1"):
            v.encode(b"a\xc3")
        with self.assertRaisesRegex(ValueError, "its lowercase is"):
            v.encode("A")

    def test_char_level_unknown_becomes_unk_where_there_is_one(self):
        v = Vocabulary("char", ["a", "<unk>"])
        self.assertEqual(v.encode("aq"), [0, 1])

    def test_word_level_splits_on_ascii_whitespace(self):
        v = Vocabulary("word", ["the", "cat", "<unk>", "<eos>", "sat."])
        # \t, \r, \v, \f separate words; a non-breaking space does not; \n is <eos>.
        self.assertEqual(v.encode("the\tcat  sat.\r\nzebra\x0bthe\n"), [0, 1, 4, 3, 2, 0, 3])
        self.assertEqual(v.encode("the\u00a0cat"), [2])
        self.assertEqual(v.decode([0, 1, 3, 4, 3]), "the cat\nsat.\n")
        self.assertEqual(v.piece(1, line_start=False), b" cat")
        self.assertEqual(v.piece(3, line_start=False), b"\n")

    def test_byte_level_is_the_bytes(self):
        v = Vocabulary("byte")
        self.assertEqual(len(v), 256)
        self.assertEqual(v.encode("é"), [0xC3, 0xA9])
        self.assertEqual(v.decode_bytes([0xFF, 0x41]), b"\xffA")
        self.assertEqual(v.eos_id, -1)

    def test_repeated_symbol_is_refused(self):
        with self.assertRaisesRegex(ValueError, "appears twice"):
            Vocabulary("char", ["a", "a"])


class SafetensorsTest(unittest.TestCase):
    def test_round_trip(self):
        tensors = {"a": torch.randn(3, 4), "b": torch.arange(5, dtype=torch.int64),
                   "c": torch.randn(2, dtype=torch.float64), "d": torch.zeros(0, 3),
                   "e": torch.randn(2, 2).to(torch.bfloat16)}
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "t.safetensors")
            mw.write_safetensors(path, tensors, {"k": "v"})
            with open(path, "rb") as f:
                (size,) = struct.unpack("<Q", f.read(8))
            self.assertEqual(size % 8, 0)
            read, metadata = mw.read_safetensors(path)
        self.assertEqual(metadata, {"k": "v"})
        self.assertEqual(list(read), list(tensors))
        for name, tensor in tensors.items():
            self.assertEqual(read[name].dtype, tensor.dtype)
            self.assertTrue(torch.equal(read[name], tensor), name)

    def test_bad_offsets_are_refused(self):
        header = json.dumps({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 4]}}).encode()
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "t.safetensors")
            with open(path, "wb") as f:
                f.write(struct.pack("<Q", len(header)) + header + b"\0" * 8)
            with self.assertRaisesRegex(mw.SafetensorsError, "'a'.*data_offsets"):
                mw.read_safetensors(path)


ZOO = {
    "rnn": [layer("rnn")],
    "mrnn": [layer("mrnn", m_size=5, bias=True)],
    "mrnn-no-bias": [layer("mrnn", m_size=5)],
    "lstm": [layer("lstm", output_gate="inside")],
    "mlstm": [layer("mlstm", m_size=5)],
    "tmlstm": [layer("tmlstm", m_size=3)],
    "gru": [layer("gru")],
    "mgru": [layer("mgru", m_size=4)],
    "tmgru": [layer("tmgru", m_size=4)],
    "mogrifier": [layer("mogrifier")],
    "mogrifier-full": [layer("mogrifier", rounds=4, rank=0, zigzag=False)],
    "mmlstm": [layer("mmlstm")],
    "mmlstm-below": [layer("mmlstm", minor_input="below")],
    "milstm": [layer("milstm")],
    "stacked": [layer("gru", hidden=7), layer("mmlstm", hidden=6)],
}


class ModelTest(unittest.TestCase):
    def test_every_cell_survives_both_formats(self):
        for name, layers in ZOO.items():
            with self.subTest(cell=name):
                model = random_model(document(layers))
                ids = model.vocabulary.encode("abc. cab\nba")
                expected = model.log_probabilities(ids)
                self.assertTrue(torch.isfinite(expected).all())
                self.assertTrue(torch.allclose(expected.exp().sum(-1),
                                               torch.ones(len(ids), dtype=torch.float64)))
                with tempfile.TemporaryDirectory() as folder:
                    for suffix in (".pt", ".safetensors"):
                        path = os.path.join(folder, "model" + suffix)
                        mw.save(model, path)
                        loaded = mw.load(path, dtype=torch.float64)
                        self.assertEqual(list(loaded.state_dict()), list(model.state_dict()))
                        got = loaded.log_probabilities(ids)
                        # The files hold float32.
                        self.assertLess(float((got - expected).abs().max()), 1e-4)

    def test_parameter_names_are_the_engines(self):
        model = mw.build_model(document([layer("mlstm", m_size=5), layer("tmgru", m_size=3)]))
        shapes = {name: list(value.shape) for name, value in model.state_dict().items()}
        self.assertEqual(shapes, {
            "input.embedding": [6, 4],
            "layer1.W_mx": [5, 4], "layer1.W_x": [24, 4], "layer1.b": [24],
            "layer1.W_mh": [1, 5, 6], "layer1.W_m": [4, 6, 5],
            "layer2.W_mx": [9, 6], "layer2.W_x": [18, 6], "layer2.b": [18],
            "layer2.W_mh_zr": [2, 3, 6], "layer2.W_mh_h": [1, 3, 6], "layer2.V": [3, 6, 3],
            "output.W": [6, 6], "output.b": [6]})
        tied = mw.build_model(document([layer("lstm", hidden=4)],
                                       output={"kind": "mos", "tied": True, "mixtures": 3,
                                               "latent_size": 4}))
        self.assertEqual(sorted(n for n in tied.state_dict() if n.startswith("output.")),
                         ["output.W_latent", "output.W_prior", "output.b_latent", "output.b_out"])
        one_hot = mw.build_model(document([layer("mogrifier", rank=0, rounds=2)], embedding=0))
        self.assertNotIn("input.embedding", one_hot.state_dict())
        self.assertEqual(list(one_hot.state_dict()["layer1.Q1"].shape), [6, 6])

    def test_window_equals_steps(self):
        model = random_model(document(ZOO["stacked"]))
        ids = model.vocabulary.encode("abc. cab")
        whole = model.log_probabilities(ids)
        state, rows = None, []
        for symbol in ids:
            logp, state = model(torch.tensor([[symbol]]), state)
            rows.append(logp[0, 0])
        self.assertTrue(torch.allclose(whole, torch.stack(rows)))

    def test_rounds_zero_and_no_minor_units_are_the_lstm(self):
        lstm = random_model(document([layer("lstm")]))
        for spec in (layer("mogrifier", rounds=0), layer("mmlstm", major_size=6, minor_size=0)):
            other = mw.build_model(document([spec])).double()
            renamed = {name.replace("_major", ""): value
                       for name, value in other.state_dict().items()}
            self.assertEqual(set(renamed), set(lstm.state_dict()))
            other.load_state_dict({name: lstm.state_dict()[name.replace("_major", "")]
                                   for name in other.state_dict()})
            ids = [1, 2, 3, 4, 5, 0]
            self.assertTrue(torch.allclose(other.log_probabilities(ids),
                                           lstm.log_probabilities(ids)))

    def test_score_and_sample(self):
        model = random_model(document([layer("lstm")]))
        score = model.score("abc.")
        self.assertEqual(score.first_predicted, 1)
        logp = model.log_probabilities(score.ids[:-1])
        self.assertTrue(torch.allclose(score.log_probabilities,
                                       logp[torch.arange(3), torch.tensor(score.ids[1:])]))
        self.assertAlmostEqual(score.bits_per_symbol, float(score.bits.mean()))
        with_context = model.score("c.", context="ab")
        self.assertEqual(with_context.first_predicted, 0)
        self.assertTrue(torch.allclose(with_context.log_probabilities, score.log_probabilities[1:]))
        sample = model.sample("ab", length=6)
        state_ids = model.vocabulary.encode("ab") + sample.ids
        rows = model.log_probabilities(state_ids)[1:-1]
        self.assertEqual(sample.ids, [int(torch.argmax(row)) for row in rows])
        self.assertEqual(sample.text, model.vocabulary.decode(sample.ids))
        drawn = model.sample("ab", length=20, temperature=1.0, seed=3)
        self.assertEqual(drawn.ids, model.sample("ab", length=20, temperature=1.0, seed=3).ids)


class ModelFileTest(unittest.TestCase):
    def test_missing_extra_and_misshapen_tensors_are_named(self):
        model = random_model(document([layer("gru")]))
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "m.pt")
            mw.save(model, path)
            tensors = torch.load(path)
            del tensors["layer1.W_zr"]
            tensors["layer1.W_h_g"] = torch.ones(1, 6, 1)
            tensors["output.b"] = torch.zeros(7)
            torch.save(tensors, path)
            with self.assertRaises(mw.ModelFileError) as caught:
                mw.load(path)
            message = str(caught.exception)
            self.assertIn("missing layer1.W_zr [2, 6, 6]", message)
            self.assertIn("unexpected layer1.W_h_g [1, 6, 1]", message)
            self.assertIn("output.b is [7], expected [6]", message)
            os.remove(path + ".json")
            with self.assertRaisesRegex(mw.ModelFileError, r"m\.pt\.json is missing"):
                mw.load(path)

    def test_a_description_without_a_layer_key_is_refused(self):
        doc = document([layer("gru")])
        del doc["model"]["layers"][0]["minor_input"]
        model = random_model(document([layer("gru")]))
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "m.safetensors")
            mw.write_safetensors(path, model.state_dict(), {"mrnn": json.dumps(doc)})
            with self.assertRaisesRegex(mw.ModelFileError, r"layers\[0\]\.minor_input"):
                mw.load(path)
            mw.write_safetensors(path, model.state_dict(), {"other": "x"})
            with self.assertRaisesRegex(mw.ModelFileError, "no 'mrnn' key"):
                mw.load(path)


if __name__ == "__main__":
    unittest.main()
