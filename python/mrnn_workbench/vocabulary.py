"""Text to ids and back, as engine/data/vocabulary.cpp does it at each level.

- byte: the 256 byte values, id = byte; the text's UTF-8 bytes (or the bytes given).
- char: one symbol per Unicode code point, stored UTF-8 encoded; invalid UTF-8 is refused.
- word: runs of bytes between ASCII whitespace (space, \\n, \\t, \\r, \\v, \\f); each "\\n" is
  the symbol <eos>. Joined back with single spaces, <eos> as a line break.

At char and word level a symbol outside the vocabulary becomes <unk> where the vocabulary
has one (word vocabularies always do) and is refused otherwise, naming the symbol and its
byte offset, as the engine does.
"""

from typing import Iterable, List, Optional, Sequence, Union

UNK = "<unk>"
EOS = "<eos>"
LEVELS = ("byte", "char", "word")
_SPACE = frozenset(b" \n\t\r\v\f")  # the engine's utf8::isSpace: ASCII whitespace only

Text = Union[str, bytes, bytearray]


def _printable(symbol: bytes) -> str:
    """The engine's printableSymbol: quoted, spaces, control bytes and backslash escaped."""
    out = []
    for byte in symbol:
        if byte == 0x5C:
            out.append("\\\\")
        elif byte <= 0x20 or byte == 0x7F:
            out.append("\\x%02X" % byte)
        else:
            out.append(chr(byte))
    text = "".join(out)
    # Multi-byte UTF-8 went in byte by byte: put it back together for reading.
    text = text.encode("latin-1", errors="replace").decode("utf-8", errors="replace")
    return "'" + text + "'"


class Vocabulary:
    """The symbols of a model, in id order. ``symbols`` as the export lists them (strings);
    byte level takes none (the 256 byte values)."""

    def __init__(self, level: str, symbols: Optional[Sequence[str]] = None):
        if level not in LEVELS:
            raise ValueError(f"vocabulary: unknown level {level!r}; expected one of {LEVELS}")
        self.level = level
        if level == "byte":
            if symbols is not None and len(symbols) != 256:
                raise ValueError("vocabulary: a byte vocabulary is the 256 bytes")
            self._symbols = [bytes([b]) for b in range(256)]
        else:
            if symbols is None:
                raise ValueError(f"vocabulary: a {level} vocabulary needs its symbols")
            self._symbols = [s.encode("utf-8") if isinstance(s, str) else bytes(s)
                             for s in symbols]
        self._ids = {}
        for index, symbol in enumerate(self._symbols):
            if not symbol:
                raise ValueError(f"vocabulary: symbol {index} is empty")
            if symbol in self._ids:
                raise ValueError(f"vocabulary: symbol {_printable(symbol)} appears twice")
            self._ids[symbol] = index
        # <unk> and <eos> are ordinary entries of char and word vocabularies; bytes have none.
        self.unk_id = -1 if level == "byte" else self._ids.get(UNK.encode(), -1)
        self.eos_id = -1 if level == "byte" else self._ids.get(EOS.encode(), -1)

    def __len__(self) -> int:
        return len(self._symbols)

    def __repr__(self) -> str:
        return f"Vocabulary({self.level}, {len(self)} symbols)"

    @property
    def symbols(self) -> List[str]:
        """Every symbol as text (bytes >= 0x80 of a byte vocabulary as U+FFFD)."""
        return [self.symbol(i) for i in range(len(self))]

    def symbol_bytes(self, symbol_id: int) -> bytes:
        return self._symbols[symbol_id]

    def symbol(self, symbol_id: int) -> str:
        return self._symbols[symbol_id].decode("utf-8", errors="replace")

    def find(self, symbol: Text) -> int:
        """The id of `symbol`, or -1."""
        key = symbol.encode("utf-8") if isinstance(symbol, str) else bytes(symbol)
        return self._ids.get(key, -1)

    def _lookup(self, symbol: bytes, offset: int) -> int:
        found = self._ids.get(symbol, self.unk_id)
        if found >= 0:
            return found
        hint = ""
        if len(symbol) == 1 and 0x41 <= symbol[0] <= 0x5A and bytes([symbol[0] + 32]) in self._ids:
            hint = " (its lowercase is: the model was trained on lowercased text)"
        raise ValueError(f"symbol {_printable(symbol)} at byte {offset} is not in the vocabulary"
                         + hint)

    def encode(self, text: Text) -> List[int]:
        """Text (str, or its UTF-8 bytes) to ids at this vocabulary's level."""
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        if self.level == "byte":
            return list(data)
        ids = []
        if self.level == "char":
            position = 0
            while position < len(data):
                length = _utf8_length(data, position)
                ids.append(self._lookup(data[position:position + length], position))
                position += length
            return ids
        position, end = 0, len(data)
        while position < end:
            byte = data[position]
            if byte == 0x0A:
                ids.append(self._lookup(EOS.encode(), position))
                position += 1
            elif byte in _SPACE:
                position += 1
            else:
                start = position
                while position < end and data[position] not in _SPACE:
                    position += 1
                ids.append(self._lookup(data[start:position], start))
        return ids

    def piece(self, symbol_id: int, line_start: bool) -> bytes:
        """What symbol `symbol_id` adds to a text: itself, or at word level the word with its
        separating space (none at a line's start) and "\\n" for <eos>."""
        if self.level != "word":
            return self._symbols[symbol_id]
        if symbol_id == self.eos_id:
            return b"\n"
        return self._symbols[symbol_id] if line_start else b" " + self._symbols[symbol_id]

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """Ids to the text's bytes (word level: words joined by spaces, <eos> as a line break)."""
        out = bytearray()
        line_start = True
        for symbol_id in ids:
            symbol_id = int(symbol_id)
            if not 0 <= symbol_id < len(self):
                raise IndexError(f"id {symbol_id} is outside the vocabulary of {len(self)}")
            out += self.piece(symbol_id, line_start)
            line_start = self.level == "word" and symbol_id == self.eos_id
        return bytes(out)

    def decode(self, ids: Iterable[int]) -> str:
        """Ids to text; bytes that are not UTF-8 (byte models) read as U+FFFD."""
        return self.decode_bytes(ids).decode("utf-8", errors="replace")


def _utf8_length(data: bytes, position: int) -> int:
    """The length of the UTF-8 sequence at `position`, refusing what the engine refuses
    (stray continuation bytes, truncated or overlong forms, surrogates, > U+10FFFF)."""
    lead = data[position]
    if lead < 0x80:
        return 1
    length = 2 if lead & 0xE0 == 0xC0 else 3 if lead & 0xF0 == 0xE0 else \
        4 if lead & 0xF8 == 0xF0 else 0
    if length:
        try:
            data[position:position + length].decode("utf-8")  # strict: the same rules
            return length
        except UnicodeDecodeError:
            pass
    raise ValueError(f"invalid UTF-8 at byte {position}")
