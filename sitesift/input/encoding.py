"""Turn page bytes into text: declared charsets first, checked against the bytes, then detection.

Order (first that holds wins):

1. A byte-order mark (UTF-8, UTF-16, UTF-32). Browsers let a BOM override even the HTTP header,
   and a BOM is never wrong by accident, so it comes before the declarations.
2. UTF-16 without a BOM, recognised by its NUL pattern around ``<``.
3. The HTTP ``Content-Type`` charset, then ``<meta charset>`` / ``<meta http-equiv>`` in the
   ``<head>`` (at most ``META_SCAN_BYTES``), then an ``<?xml encoding?>`` declaration. Each is
   mapped to the superset browsers use (GB2312/GBK -> gb18030, Big5 -> big5hkscs, or cp950
   where that decodes more, Shift_JIS -> cp932, EUC-KR -> cp949, ISO-8859-1/ASCII -> cp1252)
   and checked against the bytes:

   * a legacy declaration on bytes that are valid UTF-8 yields UTF-8 (servers and templates keep
     an old ISO-8859-1/GB2312 label after a site moved to UTF-8; the reverse, legacy text that
     happens to be valid UTF-8, is vanishingly rare once a few non-ASCII bytes appear);
   * a declaration that leaves more than ``DECLARED_MAX_ERROR_SHARE`` of the non-ASCII bytes
     undecodable is ignored (a GBK page labelled UTF-8);
   * a single-byte declaration on bytes that decode as convincing Chinese, Japanese or Korean
     yields that CJK encoding (old Chinese sites served with a default ISO-8859-1 header);
   * a CJK declaration whose text has almost no common characters yields to a CJK encoding whose
     text has many (Big5 labelled GB2312).

4. Detection: valid (or nearly valid) UTF-8; else cp1252 if there are too few non-ASCII bytes
   for statistics; else the CJK encoding whose text has the most common characters (this
   catches GBK pages that charset_normalizer misreads, such as one with a title cut
   mid-character, read as ptcp154); else charset_normalizer, preferring cp1252 among equally
   plausible Latin code pages (it picks cp1250/cp852 for English pages with curly quotes);
   else cp1252.

Text always comes back, with U+FFFD for undecodable bytes. ``DecodeError`` is raised only for
data that is not text at all: a known binary magic number, many NUL bytes, or many other
control bytes (random or compressed data).
"""

from __future__ import annotations

import codecs
import functools
import re
from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

from sitesift.errors import DecodeError

__all__ = ["decode_html", "normalize_charset"]

#: How far into the page ``<meta charset>`` is looked for. Browsers pre-scan 1 KB, then honour a
#: meta met while parsing the head; on 1,474 dev pages with a meta, 220 have it after 1 KB and
#: 31 after 8 KB (behind large inline scripts), all inside ``<head>``. The scan stops at ``<body``.
META_SCAN_BYTES = 128 * 1024
#: Above this share of undecodable non-ASCII bytes a declared charset is taken to be wrong.
#: Real mislabelled pages sit near 50-100 %; genuine pages with a few stray bytes near 0-2 %.
DECLARED_MAX_ERROR_SHARE = 0.10
#: Undeclared bytes count as UTF-8 when at most this share of the non-ASCII bytes is invalid
#: (a page cut mid-character, a stray cp1252 quote in a UTF-8 page). Legacy text is far above.
UTF8_MAX_ERROR_SHARE = 0.02
#: A CJK declaration needs this many non-ASCII bytes before valid UTF-8 overrides it: one
#: GBK character can be valid UTF-8 by chance, two 3-byte UTF-8 characters hardly ever.
UTF8_OVERRIDE_MIN_BYTES_CJK = 6
#: A CJK decoding is a candidate when at most this share of its non-ASCII bytes is undecodable
#: (real pages have a few: titles truncated mid-character, mixed-in bytes).
CJK_MAX_ERROR_SHARE = 0.02
#: ... and at least this share of its non-ASCII characters are common CJK characters (see
#: ``_is_common_cjk``). On the dev sets right decodings of Chinese pages score 0.38 or more,
#: wrong CJK decodings that pass the error filter (GBK read as Big5 or cp949) 0.08 at most.
CJK_MIN_COMMON_SHARE = 0.15
#: ... and at least this many distinct common characters: mojibake of UTF-8 punctuation repeats
#: one or two "common" characters (a middle dot read as GBK is 路); real text uses dozens, and
#: 6 still catches a page whose only Chinese is a title and a few links.
CJK_MIN_DISTINCT_COMMON = 6
#: Fewer non-ASCII bytes than this give no reliable statistics (a copyright sign, a quote):
#: undeclared, they are read as cp1252.
CJK_MIN_BYTES = 8
#: Non-ASCII characters scored when rating a CJK decoding, found in at most the first
#: ``CJK_SCAN_CHARS`` characters: enough for a stable share, cheap on huge pages.
CJK_SCORE_SAMPLE = 20_000
CJK_SCAN_CHARS = 400_000
#: Latin code pages whose chaos (charset_normalizer's mess ratio, in percent) is within this of
#: the best match count as equally plausible, and then cp1252 wins as the Web's default.
LATIN_CHAOS_TOLERANCE = 1.0
#: Statistics (CJK scoring, charset_normalizer) look at most at this much of a page (see
#: ``_sample``): 256 KB hold the text of any article; all 15 MB of a huge legacy page took
#: 3.7 s to detect.
DETECT_SAMPLE_BYTES = 256 * 1024
#: Bytes looked at to tell text from binary data.
SNIFF_BYTES = 4096
#: More NUL bytes than this share of the sniffed bytes (outside UTF-16/32) means binary data.
#: Random bytes have 0.4 %; UTF-16 text 40-50 %.
BINARY_NUL_SHARE = 0.05
#: More C0 control bytes (other than tab, line feed, form feed, carriage return, and the ESC,
#: SO, SI that ISO-2022 encodings switch with) and DEL than this share of the sniffed bytes
#: means binary data. Random bytes have 10.2 %; every page of the dev sets (2,432, UTF-16 ones
#: aside) at most 0.42 % (half a: 0 %, half b: 0.42 %), in ASCII-compatible encodings a text
#: byte is never one of these: 2 % keeps five times the largest seen.
BINARY_CONTROL_SHARE = 0.02
#: In UTF-16 text of mostly ASCII markup one byte of each pair is NUL this often or more.
UTF16_NUL_SHARE = 0.40

#: What a page is decoded with when nothing better is known: the Web's legacy default.
FALLBACK_ENCODING = "cp1252"

_BOMS = (
    (codecs.BOM_UTF8, "utf-8", "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16"),
)

#: Magic numbers of formats that are never HTML; a page starting with one is an error record.
_BINARY_MAGIC = (
    (b"%PDF-", "PDF"),
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"RIFF", "RIFF (WebP/AVI/WAV) data"),
    (b"PK\x03\x04", "ZIP archive"),
    (b"\x1f\x8b\x08", "gzip-compressed data"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed data"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
    (b"Rar!\x1a\x07", "RAR archive"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "MS Office document"),
    (b"wOFF", "WOFF font"),
    (b"wOF2", "WOFF2 font"),
    (b"\x7fELF", "ELF executable"),
    (b"OggS", "Ogg media"),
    (b"ID3", "MP3 audio"),
    (b"\x1aE\xdf\xa3", "Matroska/WebM media"),
    (b"II*\x00", "TIFF image"),
    (b"MM\x00*", "TIFF image"),
    (b"\x00\x00\x01\x00", "icon"),
)
#: ISO media (MP4, MOV, AVIF, HEIC) have their magic at offset 4.
_ISO_MEDIA_MAGIC = b"ftyp"
#: The control bytes counted against ``BINARY_CONTROL_SHARE``.
_CONTROL_BYTES = bytes(b for b in range(0x20) if b not in b"\t\n\x0c\r\x1b\x0e\x0f") + b"\x7f"

#: Charset labels (lower-case, letters and digits only) -> the Python codec to decode with.
#: Browsers decode these labels with the superset; so do we.
_LABELS: dict[str, str] = {}
for _codec, _labels in {
    "utf-8": "utf8 unicode11utf8 unicode20utf8 xunicode20utf8",
    "gb18030": "gb2312 gbk gb18030 xgbk cp936 ms936 windows936 euccn csgb2312 chinese "
    "gb231280 isoir58 xeuccn",
    "big5hkscs": "big5 big5hkscs cnbig5 csbig5 xxbig5 cp950 ms950 windows950",
    "cp932": "shiftjis sjis xsjis mskanji csshiftjis windows31j cp932 ms932 xmscp932",
    "cp949": "euckr ksc56011987 ksc56011989 ksc5601 korean csksc56011987 isoir149 windows949 "
    "cp949 uhc xwindows949 csueckr",
    "euc_jp": "eucjp xeucjp cseucpkdfmtjapanese",
    "cp1252": "iso88591 latin1 l1 isoir100 csisolatin1 cp819 ibm819 usascii ascii "
    "ansix341968 iso646us cp367 ibm367 csascii windows1252 cp1252 xcp1252 iso885911987",
    "cp1254": "iso88599 latin5 l5 isoir148 csisolatin5 windows1254 cp1254 xcp1254",
    "cp874": "iso885911 tis620 dos874 windows874 cp874",
    "mac_roman": "macintosh mac csmacintosh xmacroman macroman",
    # WHATWG: a UTF-16/32 label on bytes without a BOM or NUL pattern is a mislabelled
    # ASCII-compatible page; the NUL sniffing finds the real UTF-16 pages.
    "utf-16": "utf16 utf16le utf16be utf32 utf32le utf32be ucs2 csunicode unicode unicodefeff "
    "unicodefffe isoiec10646ucs2",
}.items():
    for _label in _labels.split():
        _LABELS[_label] = _codec
del _codec, _labels, _label

#: Python codecs that decode bytes to str but are not page charsets (or are unsafe, like UTF-7).
_NOT_CHARSETS = frozenset({
    "unicode_escape", "raw_unicode_escape", "idna", "punycode", "undefined", "utf_7", "charmap",
    "mbcs", "oem", "palmos",
})

#: The CJK encodings tried by detection, in tie-break order (most common on the Web first).
_CJK_CODECS = ("gb18030", "big5hkscs", "cp932", "euc_jp", "cp949")
_SINGLE_BYTE_EXEMPT = frozenset({"utf-8", *_CJK_CODECS, "iso2022_jp", "hz"})

#: The 200 most frequent Chinese characters in news text, simplified, plus the traditional
#: forms that differ (so Big5 pages score like GBK ones).
_COMMON_HAN = frozenset(
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下"
    "过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两"
    "体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线"
    "内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并"
    "提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见"
    "计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七"
    "海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场"
    "身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广"
    "這個們為國來時對說會後動過產種發經進現實點從業應開還與關當問義條數無軍員場邊達區處隊給門"
    "東導壓濟階聯認權證轉單帶車萬類離華確張話廣總設強見計別長頭專書記號讓隨難標準報際體樣學"
)
#: The most frequent Hangul syllables of Korean text.
_COMMON_HANGUL = frozenset(
    "이다는의에하고을가서지로기한사리도자게들대있인수어일해아정나시보요것니라그제전부주우상만원국"
    "했와학적습용여구거스내비영중오세없성위문소되면터을를년까동화장경연조실공신계관발방회"
)
_ASCII_RUNS = re.compile(r"[\x00-\x7f]+")
#: ASCII bytes after the first two of a stretch decode as themselves in every CJK codec tried
#: (a character's bytes after its first are at most the next three; an ASCII byte can only be
#: the second or the fourth, so a second ASCII byte in a row ends or breaks any character begun
#: before it): cutting such stretches to two bytes leaves a decoding's non-ASCII characters and
#: errors as they were (``tests/input/test_encoding.py`` checks it on mixed bytes). Samples are
#: at most ``DETECT_SAMPLE_BYTES``, under ``CJK_SCAN_CHARS``, so no scan limit moves either.
_ASCII_STRETCH = re.compile(rb"([\x00-\x7f]{2})[\x00-\x7f]+")
_HIGH_BYTES = bytes(range(0x80, 0x100))
_FIRST_HIGH_BYTE = re.compile(rb"[\x80-\xff]")
_ASCII_PROBE = b"<!DOCTYPE html><meta charset=\"x\">/&;:-_=#'\n\tAZaz09"

_META_CHARSET = re.compile(
    rb"""<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9][A-Za-z0-9._:()\-]*)""", re.IGNORECASE
)
_XML_ENCODING = re.compile(
    rb"""^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9][A-Za-z0-9._:\-]*)""", re.IGNORECASE
)
_BODY_START = re.compile(rb"<body\b", re.IGNORECASE)
_LABEL_JUNK = re.compile(r"[^a-z0-9]")


class _Decoded(NamedTuple):
    text: str
    encoding: str


def decode_html(data: bytes, http_charset: str | None = None) -> tuple[str, str]:
    """``(text, encoding)`` of page bytes; see the module docstring for the order of evidence.

    ``http_charset`` is the charset parameter of the HTTP ``Content-Type`` header, if known.
    Raises ``DecodeError`` only for binary data (a known magic number, many NUL or other
    control bytes).
    """
    if not data:
        return "", "utf-8"
    for bom, name, codec in _BOMS:
        if data.startswith(bom):
            return data.decode(codec, "replace"), name
    sample = data[:SNIFF_BYTES]
    utf16 = _sniff_utf16(sample)
    if utf16:
        return data.decode(utf16, "replace"), utf16
    _reject_binary(data, sample)

    # The non-ASCII bytes are counted only when a share of them decides (most pages are
    # ASCII or valid UTF-8, told by ``isascii`` and one strict decoding, both in C).
    non_ascii = functools.cache(lambda: len(data) - len(data.translate(None, _HIGH_BYTES)))
    utf8 = None if data.isascii() else _strict_utf8(data)  # (ASCII pages: never asked for)
    for label in (http_charset, _meta_charset(data), _xml_charset(data)):
        codec = normalize_charset(label)
        if codec is None:
            continue
        decoded = _check_declared(data, codec, non_ascii, utf8)
        if decoded is not None:
            return decoded
    return _detect(data, non_ascii, utf8)


def normalize_charset(label: str | None) -> str | None:
    """The Python codec to decode a charset ``label`` with, or None if it names no usable charset.

    Legacy labels map to the superset browsers decode them with (``gb2312`` -> ``gb18030``,
    ``iso-8859-1`` -> ``cp1252``); UTF-16/32 labels map to UTF-8 as in the WHATWG standard.
    """
    if not label:
        return None
    key = _LABEL_JUNK.sub("", label.strip().lower())
    if not key:
        return None
    if key in _LABELS:
        return "utf-8" if _LABELS[key] == "utf-16" else _LABELS[key]
    try:
        info = codecs.lookup(label.strip())
    except (LookupError, ValueError):
        return None
    name = info.name.replace("-", "_")
    if name in _NOT_CHARSETS or not _ascii_compatible(info.name):
        return None
    mapped = _LABELS.get(_LABEL_JUNK.sub("", name))
    if mapped is not None:
        return "utf-8" if mapped == "utf-16" else mapped
    return info.name


def _ascii_compatible(codec: str) -> bool:
    """True when ``codec`` decodes ASCII markup as itself (rules out EBCDIC, UTF-16, base64)."""
    try:
        return _ASCII_PROBE.decode(codec) == _ASCII_PROBE.decode("ascii")
    except (LookupError, UnicodeError, TypeError, ValueError):
        return False


def _sniff_utf16(sample: bytes) -> str | None:
    """``utf-16-le``/``-be`` for BOM-less UTF-16 markup (every other byte NUL), else None."""
    if len(sample) < 4 or (b"<\x00" not in sample and b"\x00<" not in sample):
        return None
    half = len(sample) // 2 * 2
    even, odd = sample[0:half:2], sample[1:half:2]
    even_nul = even.count(0) / len(even)
    odd_nul = odd.count(0) / len(odd)
    if odd_nul >= UTF16_NUL_SHARE and even_nul < BINARY_NUL_SHARE:
        return "utf-16-le"
    if even_nul >= UTF16_NUL_SHARE and odd_nul < BINARY_NUL_SHARE:
        return "utf-16-be"
    return None


def _reject_binary(data: bytes, sample: bytes) -> None:
    for magic, kind in _BINARY_MAGIC:
        if data.startswith(magic):
            raise DecodeError(f"binary data ({kind}), not an HTML page")
    if sample[4:8] == _ISO_MEDIA_MAGIC:
        raise DecodeError("binary data (ISO media file), not an HTML page")
    nuls = sample.count(0)
    if nuls > BINARY_NUL_SHARE * len(sample):
        raise DecodeError(
            f"binary data ({nuls} NUL bytes in the first {len(sample)}), not an HTML page"
        )
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    if controls > BINARY_CONTROL_SHARE * len(sample):
        raise DecodeError(f"binary data ({controls} control bytes in the first {len(sample)}), "
                          "not an HTML page")


def _meta_charset(data: bytes) -> str | None:
    head = data[:META_SCAN_BYTES]
    body = _BODY_START.search(head)
    if body:
        head = head[: body.start()]
    match = _META_CHARSET.search(head)
    return match.group(1).decode("ascii") if match else None


def _xml_charset(data: bytes) -> str | None:
    match = _XML_ENCODING.match(data[:1024])
    return match.group(1).decode("ascii") if match else None


def _errors(data: bytes, text: str, codec: str) -> int:
    """Undecodable bytes in ``text`` (decoded with errors="replace"), not counting real U+FFFD."""
    count = text.count("\ufffd")
    if count and codec == "utf-8":
        count -= data.count(b"\xef\xbf\xbd")
    return count


def _strict_utf8(data: bytes) -> str | None:
    """``data`` as UTF-8 when it is valid UTF-8 (then it decodes with no error), else None."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _check_declared(data: bytes, codec: str, count: Callable[[], int],
                    utf8: str | None) -> _Decoded | None:
    """The page decoded as declared, or as what the bytes prove instead; None if it fails.
    ``count``: the number of non-ASCII bytes; ``utf8``: the page (not ASCII) as valid UTF-8,
    or None."""
    if data.isascii():
        return _decode(data, codec)
    if codec == "utf-8":
        if utf8 is not None:  # (no undecodable byte)
            return _Decoded(utf8, codec)
        text = data.decode("utf-8", "replace")
        errors = _errors(data, text, codec)
        return _Decoded(text, codec) if errors <= DECLARED_MAX_ERROR_SHARE * count() else None

    is_cjk = codec in _CJK_CODECS
    if utf8 is not None and (not is_cjk or count() >= UTF8_OVERRIDE_MIN_BYTES_CJK):
        return _Decoded(utf8, "utf-8")
    non_ascii = count()
    declared = _decode(data, codec)
    if _errors(data, declared.text, codec) > DECLARED_MAX_ERROR_SHARE * non_ascii:
        return None
    if non_ascii < CJK_MIN_BYTES:
        return declared
    if is_cjk:
        score = _common_share(declared.text)
        if score >= CJK_MIN_COMMON_SHARE:
            return declared
        best = _best_cjk(_sample(data), exclude=codec)
        if best is not None and best[1] > score:
            return _decode(data, best[0])
        return declared
    if codec not in _SINGLE_BYTE_EXEMPT:
        best = _best_cjk(_sample(data))
        if best is not None:
            return _decode(data, best[0])
    return declared


def _detect(data: bytes, count: Callable[[], int], utf8: str | None) -> _Decoded:
    """Decoding of bytes without a usable declaration (``count`` and ``utf8`` as for
    ``_check_declared``)."""
    if data.isascii():
        return _Decoded(data.decode("ascii"), "ascii")
    if utf8 is not None:  # (no undecodable byte)
        return _Decoded(utf8, "utf-8")
    non_ascii = count()
    text = data.decode("utf-8", "replace")
    if _errors(data, text, "utf-8") <= UTF8_MAX_ERROR_SHARE * non_ascii:
        return _Decoded(text, "utf-8")
    if non_ascii < CJK_MIN_BYTES:
        # A few stray bytes carry no statistics (charset_normalizer reads one é as Big5).
        return _Decoded(data.decode(FALLBACK_ENCODING, "replace"), FALLBACK_ENCODING)
    sample = _sample(data)
    best = _best_cjk(sample)
    codec = best[0] if best is not None else _statistical(sample) or FALLBACK_ENCODING
    return _decode(data, codec)


def _decode(data: bytes, codec: str) -> _Decoded:
    """``data`` decoded with ``codec``, errors replaced. Big5 is read as Big5-HKSCS, which lacks
    a few Microsoft additions (the euro sign): cp950 is used instead when it decodes more."""
    text = data.decode(codec, "replace")
    if codec == "big5hkscs" and "\ufffd" in text:
        alternative = data.decode("cp950", "replace")
        if alternative.count("\ufffd") < text.count("\ufffd"):
            return _Decoded(alternative, "cp950")
    return _Decoded(text, codec)


def _common_share(text: str) -> float:
    """Share of the non-ASCII characters of ``text`` that are common Chinese, Japanese or Korean;
    0 when fewer than ``CJK_MIN_DISTINCT_COMMON`` distinct common characters occur.

    Kana count as a class (any full-width kana is common in Japanese and rare in mojibake);
    Han and Hangul go by frequency lists: mojibake lands on Han and Hangul too, but on rare ones.
    """
    chars = _ASCII_RUNS.sub("", text[:CJK_SCAN_CHARS])[:CJK_SCORE_SAMPLE]
    if not chars:
        return 0.0
    counts = Counter(chars)  # counting in C, then one test per distinct character
    common = [n for c, n in counts.items() if _is_common_cjk(c)]
    if len(common) < CJK_MIN_DISTINCT_COMMON:
        return 0.0
    return sum(common) / len(chars)


def _is_common_cjk(char: str) -> bool:
    return "\u3041" <= char <= "\u30fe" or char in _COMMON_HAN or char in _COMMON_HANGUL


def _sample(data: bytes) -> bytes:
    """The part of ``data`` statistics look at: all of a small page, else ``DETECT_SAMPLE_BYTES``
    from the tag before the first non-ASCII byte (pages can open with 300 KB of ASCII script),
    cut before a ``<`` so no multi-byte character is split."""
    if len(data) <= DETECT_SAMPLE_BYTES:
        return data
    first = _FIRST_HIGH_BYTE.search(data)
    start = max(data.rfind(b"<", 0, first.start()), 0) if first else 0
    end = start + DETECT_SAMPLE_BYTES
    if end >= len(data):
        return data[start:]
    cut = data.rfind(b"<", start + 1, end)
    return data[start : cut if cut > start else end]


def _best_cjk(sample: bytes, exclude: str | None = None) -> tuple[str, float] | None:
    """The CJK codec whose decoding has the most common characters, if one is convincing, and
    that share."""
    non_ascii = len(sample) - len(sample.translate(None, _HIGH_BYTES))
    if non_ascii < CJK_MIN_BYTES:
        return None
    # Only the non-ASCII characters and the errors count, so the sample is decoded with its
    # ASCII stretches cut (``_ASCII_STRETCH``): the same characters in the same order, the same
    # errors, in a fraction of the five decodings of a mostly ASCII page.
    sample = _ASCII_STRETCH.sub(rb"\1", sample)
    best: tuple[str, float] | None = None
    for codec in _CJK_CODECS:
        if codec == exclude:
            continue
        text = _decode(sample, codec).text
        if _errors(sample, text, codec) > CJK_MAX_ERROR_SHARE * non_ascii:
            continue
        score = _common_share(text)
        if score >= CJK_MIN_COMMON_SHARE and (best is None or score > best[1]):
            best = (codec, score)
    return best


def _statistical(data: bytes) -> str | None:
    """charset_normalizer's guess as a codec name, preferring cp1252 among Latin look-alikes.
    (Imported here: most pages declare or are UTF-8, and the import is 30-40 ms of start-up.)"""
    import charset_normalizer

    matches = [m for m in charset_normalizer.from_bytes(data) if _ascii_compatible(m.encoding)]
    if not matches:
        return None
    best = matches[0]
    for match in matches:
        if match.percent_chaos > best.percent_chaos + LATIN_CHAOS_TOLERANCE:
            break
        if "cp1252" in match.could_be_from_charset:
            return "cp1252"
    return normalize_charset(best.encoding) or best.encoding
