"""decode_html on pages encoded here with Python codecs: declared, undeclared and mislabelled."""

from __future__ import annotations

import codecs
import random

import pytest

from sitesift.errors import DecodeError
from sitesift.input.encoding import decode_html, normalize_charset

ZH_HANS = (
    "中国经济在过去一年里保持了稳定的发展，国家统计局今天发布的数据显示，全国生产总值比上年增长"
    "百分之五。专家认为，这一结果说明我们的政策是有效的，但是也要看到，发展中还存在一些问题，"
    "需要进一步解决。朱镕基曾经说过，改革开放是中国发展的根本动力。"
)
# 镕 is in GBK but not in GB2312: a page labelled gb2312 needs the superset to decode it.
ZH_HANT = (
    "台灣的經濟在過去一年裡保持了穩定的發展，政府今天發布的數據顯示，全國生產總值比上年增長"
    "百分之五。專家認為，這個結果說明我們的政策是有效的，但是也要看到，發展中還存在一些問題，"
    "需要進一步解決。"
)
JA = (
    "日本の経済は昨年も安定した成長を続けました。政府が今日発表したデータによると、国内総生産は"
    "前年と比べて五パーセント増加しました。専門家は、この結果は政策が効果的だったことを示して"
    "いると話していますが、まだ解決すべき問題もあります。"
)
KO = (
    "한국 경제는 지난해에도 안정적인 성장을 이어갔다. 정부가 오늘 발표한 자료에 따르면 국내 "
    "총생산은 전년보다 오 퍼센트 증가했다. 전문가들은 이 결과가 정책이 효과적이었다는 것을 "
    "보여준다고 말했지만, 아직 해결해야 할 문제도 있다고 지적했다."
)
WESTERN = (
    "Les élèves ont reçu leur diplôme — « très bien » — à l’école. Prix : 20 € ; "
    "Straße, Müller, naïve café, “quoted” and ‘single’ marks… señor, garçon, fiancée."
)

#: (text, codec to encode with, label to declare, codec decode_html must report)
CASES = [
    pytest.param(ZH_HANS, "utf-8", "utf-8", "utf-8", id="utf8-zh"),
    pytest.param(ZH_HANS, "gbk", "gb2312", "gb18030", id="gbk-as-gb2312"),
    pytest.param(ZH_HANS, "gbk", "gbk", "gb18030", id="gbk"),
    pytest.param(ZH_HANS, "gb18030", "gb18030", "gb18030", id="gb18030"),
    pytest.param(ZH_HANT, "big5", "big5", "big5hkscs", id="big5"),
    pytest.param(ZH_HANT, "cp950", "big5", "big5hkscs", id="cp950-as-big5"),
    pytest.param(JA, "shift_jis", "shift_jis", "cp932", id="shift-jis"),
    pytest.param(JA, "euc_jp", "euc-jp", "euc_jp", id="euc-jp"),
    pytest.param(KO, "euc_kr", "euc-kr", "cp949", id="euc-kr"),
    pytest.param(WESTERN, "cp1252", "iso-8859-1", "cp1252", id="cp1252-as-latin1"),
    pytest.param(WESTERN, "cp1252", "windows-1252", "cp1252", id="cp1252"),
]


def html_page(body: str, head: str = "") -> str:
    return (
        f"<!DOCTYPE html>\n<html><head>{head}<title>Page</title></head>\n"
        f"<body><h1>Headline</h1><p>{body}</p><p>{body}</p></body></html>\n"
    )


def meta_charset(label: str) -> str:
    return f'<meta charset="{label}">'


def meta_http_equiv(label: str) -> str:
    return f'<meta http-equiv="Content-Type" content="text/html; charset={label}">'


@pytest.mark.parametrize(("text", "codec", "label", "expected"), CASES)
@pytest.mark.parametrize("declare", [meta_charset, meta_http_equiv], ids=["meta", "http-equiv"])
def test_declared_charset(text: str, codec: str, label: str, expected: str, declare) -> None:
    html = html_page(text, declare(label))
    decoded, encoding = decode_html(html.encode(codec))
    assert encoding == expected
    assert decoded == html


@pytest.mark.parametrize(("text", "codec", "label", "expected"), CASES)
def test_http_header_charset(text: str, codec: str, label: str, expected: str) -> None:
    html = html_page(text)
    decoded, encoding = decode_html(html.encode(codec), http_charset=label)
    assert (decoded, encoding) == (html, expected)


@pytest.mark.parametrize(("text", "codec", "label", "expected"), CASES)
def test_undeclared_charset_is_detected(text: str, codec: str, label: str, expected: str) -> None:
    html = html_page(text)
    decoded, encoding = decode_html(html.encode(codec))
    assert decoded == html
    assert encoding == expected


OTHER_SINGLE_BYTE = [
    pytest.param(
        "Пётр Ильич Чайковский родился в Воткинске. Его музыка звучит во всём мире, а оперы "
        "идут на лучших сценах. В детстве он учился играть на фортепиано.", "cp1251",
        id="russian-cp1251",
    ),
    pytest.param(
        "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και μία από τις αρχαιότερες πόλεις του κόσμου. "
        "Το μουσείο της Ακρόπολης δέχεται χιλιάδες επισκέπτες.", "cp1253", id="greek-cp1253",
    ),
    pytest.param(
        "Die Bürger der Stadt München haben über die Änderung abgestimmt. Größere Straßen, "
        "schönere Plätze und weniger Lärm – das wünschen sich viele.", "cp1252", id="german",
    ),
    pytest.param(
        "El niño comió piñata en la mañana; ¿dónde está la estación? ¡Qué día! Mañana "
        "volveremos a la ciudad para ver a nuestros señores.", "cp1252", id="spanish",
    ),
]


@pytest.mark.parametrize(("text", "codec"), OTHER_SINGLE_BYTE)
def test_undeclared_single_byte_pages_are_not_read_as_cjk(text: str, codec: str) -> None:
    html = html_page(text * 3)
    decoded, encoding = decode_html(html.encode(codec))
    assert decoded == html
    assert encoding not in {"gb18030", "big5hkscs", "cp932", "euc_jp", "cp949"}


def test_short_chinese_page_without_declaration() -> None:
    # A title and a link or two: few characters, still enough for the CJK score.
    for text, codec, expected in (
        ("雅虎新闻：中国经济发展", "gbk", "gb18030"),
        ("雅虎新聞：中國經濟發展", "big5", "big5hkscs"),
    ):
        html = html_page(text)
        assert decode_html(html.encode(codec)) == (html, expected)


def test_big5_with_microsoft_euro_sign_uses_cp950() -> None:
    html = html_page(ZH_HANT + "價格：20€", meta_charset("big5"))
    assert decode_html(html.encode("cp950")) == (html, "cp950")


def test_gb2312_label_decodes_gbk_only_characters() -> None:
    data = html_page(ZH_HANS, meta_charset("gb2312")).encode("gbk")
    with pytest.raises(UnicodeDecodeError):
        data.decode("gb2312")
    assert "朱镕基" in decode_html(data)[0]


@pytest.mark.parametrize(
    ("text", "codec", "wrong_label", "expected"),
    [
        pytest.param(ZH_HANS, "gbk", "utf-8", "gb18030", id="gbk-labelled-utf8"),
        pytest.param(ZH_HANS, "utf-8", "gb2312", "utf-8", id="utf8-labelled-gb2312"),
        pytest.param(WESTERN, "utf-8", "iso-8859-1", "utf-8", id="utf8-labelled-latin1"),
        pytest.param(ZH_HANS, "gbk", "iso-8859-1", "gb18030", id="gbk-labelled-latin1"),
        pytest.param(ZH_HANT, "big5", "gb2312", "big5hkscs", id="big5-labelled-gb2312"),
        pytest.param(ZH_HANS, "gbk", "big5", "gb18030", id="gbk-labelled-big5"),
        pytest.param(JA, "shift_jis", "euc-kr", "cp932", id="sjis-labelled-euckr"),
        pytest.param(KO, "euc_kr", "gbk", "cp949", id="euckr-labelled-gbk"),
        pytest.param(WESTERN, "cp1252", "utf-8", "cp1252", id="cp1252-labelled-utf8"),
    ],
)
def test_wrong_declared_charset_falls_back(
    text: str, codec: str, wrong_label: str, expected: str
) -> None:
    html = html_page(text, meta_charset(wrong_label))
    decoded, encoding = decode_html(html.encode(codec))
    assert (decoded, encoding) == (html, expected)


@pytest.mark.parametrize("label", ["x-foo", "base64", "utf-7", "rot13", "", "unicode_escape"])
def test_unknown_or_unsafe_label_falls_back_to_detection(label: str) -> None:
    html = html_page(ZH_HANS, meta_charset(label) if label else "")
    assert decode_html(html.encode("gbk")) == (html, "gb18030")
    assert decode_html(html.encode("gbk"), http_charset=label) == (html, "gb18030")


def test_http_header_comes_before_meta() -> None:
    html = html_page(ZH_HANS, meta_charset("big5"))
    # The header is right, the meta wrong in a way bytes cannot show (Big5 label on GBK).
    assert decode_html(html.encode("gbk"), http_charset="gbk") == (html, "gb18030")


def test_wrong_http_header_yields_to_meta() -> None:
    html = html_page(ZH_HANS, meta_charset("gbk"))
    assert decode_html(html.encode("gbk"), http_charset="utf-8") == (html, "gb18030")


def test_meta_late_in_head_is_used_but_not_in_body() -> None:
    script = "<script>var x = 1;</script>\n" * 1500  # ~40 KB of head before the meta
    late = html_page(WESTERN, script + meta_charset("windows-1251"))
    assert len(late.encode("cp1252")) > 40_000
    # The late meta is honoured (and is wrong here: the point is that it is read).
    assert decode_html(late.encode("cp1252"))[1] == "cp1251"
    in_body = html_page(WESTERN).replace("<h1>", meta_charset("windows-1251") + "<h1>")
    assert decode_html(in_body.encode("cp1252")) == (in_body, "cp1252")


def test_xml_declaration_is_a_declaration() -> None:
    html = '<?xml version="1.0" encoding="Shift_JIS"?>\n' + html_page(JA)
    assert decode_html(html.encode("cp932")) == (html, "cp932")


@pytest.mark.parametrize(
    ("bom", "codec", "expected"),
    [
        (codecs.BOM_UTF8, "utf-8", "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16-be"),
        (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32-le"),
    ],
)
def test_bom_wins_over_declarations(bom: bytes, codec: str, expected: str) -> None:
    html = html_page(ZH_HANS, meta_charset("iso-8859-1"))
    data = bom + html.encode(codec)
    assert decode_html(data, http_charset="gbk") == (html, expected)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_sniffed(codec: str) -> None:
    html = html_page(KO)
    assert decode_html(html.encode(codec)) == (html, codec)


def test_utf16_label_on_ascii_compatible_bytes_means_utf8() -> None:
    html = html_page(ZH_HANS, meta_charset("utf-16"))
    assert decode_html(html.encode("utf-8")) == (html, "utf-8")


def test_pure_ascii() -> None:
    html = html_page("plain English text")
    assert decode_html(html.encode("ascii")) == (html, "ascii")
    declared = html_page("plain", meta_charset("iso-8859-1"))
    assert decode_html(declared.encode("ascii")) == (declared, "cp1252")


def test_empty_bytes() -> None:
    assert decode_html(b"") == ("", "utf-8")


def test_utf8_with_a_few_stray_bytes_stays_utf8() -> None:
    data = html_page(ZH_HANS * 3).encode("utf-8") + b"<p>caf\xe9 \x92</p>"
    text, encoding = decode_html(data)
    assert encoding == "utf-8"
    assert text.count("\ufffd") == 2
    assert ZH_HANS in text


def test_genuine_replacement_characters_do_not_count_as_errors() -> None:
    html = html_page(WESTERN + " \ufffd" * 50, meta_charset("utf-8"))
    assert decode_html(html.encode("utf-8")) == (html, "utf-8")


def test_random_bytes_are_binary_data() -> None:
    """Random bytes hold about 10 % C0 control bytes, text almost none: an error, not a page
    of mojibake; also with few NUL bytes, after an HTML-looking start, or 200 KB long."""
    rng = random.Random(20261122)
    for size in (300, 5000, 200_000):
        data = rng.randbytes(size)
        with pytest.raises(DecodeError, match="control bytes"):
            decode_html(data)
        with pytest.raises(DecodeError, match="control bytes"):
            decode_html(b"<html><body>" + bytes(b or 1 for b in data))


def test_text_with_a_few_control_bytes_or_iso2022_escapes_is_text() -> None:
    # Stray control bytes in real pages: up to 0.42 % of the sniffed bytes (dev data).
    html = html_page((WESTERN + "\x08") * 10, meta_charset("utf-8"))
    assert decode_html(html.encode("utf-8")) == (html, "utf-8")
    # ISO-2022 encodings switch character sets with ESC, SO and SI.
    japanese = html_page("日本語の文章です。" * 200, meta_charset("iso-2022-jp"))
    text, _ = decode_html(japanese.encode("iso2022_jp"))
    assert "日本語の文章です。" in text


@pytest.mark.parametrize(
    "data",
    [
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        b"\xff\xd8\xff\xe0\x00\x10JFIF",
        b"GIF89a\x01\x00\x01\x00",
        b"PK\x03\x04\x14\x00",
        b"\x1f\x8b\x08\x00\x00\x00\x00\x00",
        b"\x00\x00\x00\x20ftypisom",
    ],
    ids=["pdf", "png", "jpeg", "gif", "zip", "gzip", "mp4"],
)
def test_binary_magic_raises(data: bytes) -> None:
    with pytest.raises(DecodeError, match="decode: binary data"):
        decode_html(data + b"<html>" * 10)


def test_many_nul_bytes_raise() -> None:
    data = b"<html>" + bytes(range(256)) * 4 + b"\x00" * 400
    with pytest.raises(DecodeError, match="NUL"):
        decode_html(data)


@pytest.mark.parametrize(
    ("label", "codec"),
    [
        ("UTF-8", "utf-8"), ("utf8", "utf-8"), ("GB2312", "gb18030"), ("gbk", "gb18030"),
        ("x-gbk", "gb18030"), ("GB_2312-80", "gb18030"), ("big5", "big5hkscs"),
        ("Big5-HKSCS", "big5hkscs"), ("Shift_JIS", "cp932"), ("x-sjis", "cp932"),
        ("EUC-KR", "cp949"), ("ks_c_5601-1987", "cp949"), ("ISO-8859-1", "cp1252"),
        ("latin1", "cp1252"), ("US-ASCII", "cp1252"), ("iso8859_1", "cp1252"),
        ("windows-1251", "cp1251"), ("koi8-r", "koi8-r"), ("ISO-8859-9", "cp1254"),
        ("tis-620", "cp874"), ("UTF-16LE", "utf-8"), (" utf-8 ", "utf-8"),
        ("x-foo", None), ("", None), (None, None), ("hex", None), ("cp037", None),
    ],
)
def test_normalize_charset(label: str | None, codec: str | None) -> None:
    assert normalize_charset(label) == codec


def test_cut_ascii_stretches_leave_every_cjk_decoding_as_it_was() -> None:
    # _best_cjk decodes a sample with its ASCII stretches cut to two bytes: each CJK codec
    # (and cp950, Big5's alternative) must find the same non-ASCII characters, in order, and
    # the same errors, in bytes that mix ASCII, stray high bytes, GB18030's four-byte
    # sequences (ASCII digits second and fourth) and real CJK text.
    import re

    from sitesift.input.encoding import _ASCII_STRETCH, _CJK_CODECS, _decode

    ascii_runs = re.compile(r"[\x00-\x7f]+")
    rng = random.Random(7)
    texts = ["中文字符".encode("gb18030"), "繁體".encode("big5hkscs"),
             "ひらがな".encode("cp932"), "한국어".encode("cp949"), "日本".encode("euc_jp")]
    for _ in range(3000):
        parts = []
        for _ in range(rng.randint(1, 12)):
            kind = rng.random()
            if kind < 0.4:
                parts.append(bytes(rng.choice(b"0123456789 az<>=\"\n") for _ in range(
                    rng.randint(1, 8))))
            elif kind < 0.7:
                parts.append(bytes(rng.randint(0x80, 0xFF) for _ in range(rng.randint(1, 6))))
            elif kind < 0.85:
                parts.append(bytes([rng.randint(0x81, 0xFE), rng.randint(0x30, 0x39),
                                    rng.randint(0x81, 0xFE), rng.randint(0x30, 0x39)]))
            else:
                parts.append(rng.choice(texts))
        data = b"".join(parts)
        cut = _ASCII_STRETCH.sub(rb"\1", data)
        for codec in (*_CJK_CODECS, "cp950"):
            whole, short = _decode(data, codec), _decode(cut, codec)
            assert short.encoding == whole.encoding, (codec, data)
            assert ascii_runs.sub("", short.text) == ascii_runs.sub("", whole.text), (codec, data)
            assert short.text.count("\ufffd") == whole.text.count("\ufffd"), (codec, data)
