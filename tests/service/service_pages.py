"""A small synthetic news site for the service tests: every page shares navigation, a side
list, a footer and a boilerplate line inside the article (which only the template method
removes), and has an article of its own."""

from __future__ import annotations

TOPICS = ["harbour", "bridge", "library", "market", "school", "tram", "park", "museum"]
BOILERPLATE = "Subscribe to the Gazette newsletter for the day's stories from the whole valley."


def article_page(i: int, *, site: str = "gazette.example", script: bool = False) -> str:
    topic = TOPICS[i % len(TOPICS)]
    paragraphs = "\n".join(
        f"<p>The {topic} story {i} continues with detail number {k}: the council met on day "
        f"{k + i} and residents of ward {i * 7 + k} asked about the {topic} budget again.</p>"
        for k in range(5)
    )
    extra = "<script>document.body.setAttribute('data-ran', 'yes')</script>" if script else ""
    return f"""<html><head><title>{topic.title()} news {i} | Gazette</title></head><body>
<div id="top"><a href="/">Gazette</a> <a href="/city">City</a> <a href="/sport">Sport</a>
<a href="/arts">Arts</a> <a href="/weather">Weather</a></div>
<div id="main"><div class="story"><h1>{topic.title()} news {i}</h1>
<p class="by">By Staff Reporter</p>
{paragraphs}
<p>{BOILERPLATE}</p>
<img src="https://images.{site}/{i}.jpg">
</div>
<div class="side"><h3>Most read</h3><ul><li><a href="/a">Council meets</a></li>
<li><a href="/b">Rain again</a></li><li><a href="/c">Tram works</a></li></ul></div></div>
<div id="foot">© Gazette. <a href="/about">About</a> <a href="/privacy">Privacy</a></div>
{extra}</body></html>"""


def page_json(i: int, *, site: str = "gazette.example", script: bool = False) -> dict[str, str]:
    return {"url": f"https://www.{site}/story/{i}.html", "html": article_page(i, site=site,
                                                                               script=script)}

