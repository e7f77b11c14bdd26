"""Real WordPress sites served locally for the crawl benchmark (``crawl.py --sites``).

Debian's ``wordpress`` package (6.1, themes twentytwentyone/-two/-three), MariaDB and PHP's
built-in server (``php -S``, several workers), set up by this module and nothing else:

    apt-get install wordpress wordpress-theme-twentytwentyone wordpress-theme-twentytwentytwo \
        wordpress-theme-twentytwentythree mariadb-server php-cli php-mysql php-xml
    service mariadb start

``setup(site)`` (re)creates one site: its database, ``/etc/wordpress/config-sitesift-NAME.php``
(Debian's per-site config; ``WP_HOME`` follows the request's host, so any port works),
``wp_install`` (which adds WordPress's own "Hello world!" post and "Sample Page"), the theme,
permalinks, posts per page, authors, categories, tags, and posts written from a seeded word
list (titles, several paragraphs, dates a few days apart). It returns the site's gold as
WordPress itself gives it: each post's and page's path and title, and every archive (home,
categories, tags, authors, months) with its pagination pages. ``serve(site)`` runs ``php -S``
on a free port and returns the process and the base URL.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

WORDPRESS = Path("/usr/share/wordpress")
CONFIG_DIR = Path("/etc/wordpress")
DB_USER, DB_PASSWORD = "sitesift_bench", "sitesift-bench"


@dataclass(frozen=True)
class SiteSpec:
    """One benchmark site: theme, posts, posts per page, permalink structure ("" = plain)."""

    name: str
    theme: str
    posts: int
    per_page: int
    permalinks: str
    seed: int


#: Three default themes, twice each: 8 to 30 posts, pretty and plain permalinks, 10 (the
#: WordPress default) and 5 posts per page, so home, category and author pages paginate.
SITES = (
    SiteSpec("tt1-news", "twentytwentyone", 30, 10, "/%year%/%monthnum%/%day%/%postname%/", 1),
    SiteSpec("tt1-plain", "twentytwentyone", 12, 5, "", 2),
    SiteSpec("tt2-blog", "twentytwentytwo", 24, 10, "/%postname%/", 3),
    SiteSpec("tt2-dated", "twentytwentytwo", 8, 5, "/%year%/%monthnum%/%postname%/", 4),
    SiteSpec("tt3-journal", "twentytwentythree", 30, 10, "/%category%/%postname%/", 5),
    SiteSpec("tt3-archive", "twentytwentythree", 16, 5, "/archives/%post_id%", 6),
)

_WORDS = [
    "river", "council", "market", "harbour", "garden", "bridge", "library", "station", "orchard",
    "festival", "museum", "valley", "school", "winter", "summer", "railway", "village", "forest",
    "island", "meadow", "lantern", "kitchen", "workshop", "theatre", "journey", "letter",
    "season", "weather", "harvest", "mountain", "coast", "street",
]
_CATEGORIES = ("Local news", "Travel notes", "Recipes", "Gardening", "History")
_TAGS = ("weekend", "family", "photos", "long read", "interview", "opinion", "guide")
_AUTHORS = ("alice", "bruno", "chen")

_INSTALL_PHP = r"""<?php
$_SERVER['HTTP_HOST'] = getenv('WPB_HOST');
$_SERVER['WORDPRESS_CONFIG'] = getenv('WPB_CONFIG');
$_SERVER['REQUEST_URI'] = '/';
define('WP_INSTALLING', true);
require '/usr/share/wordpress/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/taxonomy.php';
$spec = json_decode(file_get_contents(getenv('WPB_SPEC')), true);
wp_install($spec['title'], 'admin', 'admin@example.org', true, '', 'bench-password');
switch_theme($spec['theme']);
update_option('posts_per_page', $spec['per_page']);
update_option('blogdescription', $spec['tagline']);
global $wp_rewrite;
$wp_rewrite->set_permalink_structure($spec['permalinks']);
$wp_rewrite->flush_rules(false);
$users = array();
foreach ($spec['authors'] as $login) {
    $users[] = wp_insert_user(array('user_login' => $login, 'user_pass' => 'bench-password',
        'display_name' => ucfirst($login) . ' Example', 'role' => 'author'));
}
$cats = array();
foreach ($spec['categories'] as $name) { $cats[] = wp_create_category($name); }
foreach ($spec['posts'] as $p) {
    wp_insert_post(array('post_title' => $p['title'], 'post_content' => $p['content'],
        'post_status' => 'publish', 'post_author' => $users[$p['author']],
        'post_date' => $p['date'], 'post_category' => array($cats[$p['category']]),
        'tags_input' => $p['tags']));
}
echo "installed\n";
"""

_GOLD_PHP = r"""<?php
$_SERVER['HTTP_HOST'] = getenv('WPB_HOST');
$_SERVER['WORDPRESS_CONFIG'] = getenv('WPB_CONFIG');
$_SERVER['REQUEST_URI'] = '/';
require '/usr/share/wordpress/wp-load.php';
$per = (int) get_option('posts_per_page');
$home = home_url('/');
function rel($url) { global $home; return '/' . substr($url, strlen($home)); }
function paged($link, $count) {
    global $per; $out = array(rel($link));
    for ($n = 2; $n <= (int) ceil($count / $per); $n++) { $out[] = rel(page_n($link, $n)); }
    return $out;
}
function page_n($link, $n) {
    global $wp_rewrite;
    if ($wp_rewrite->using_permalinks()) {
        return trailingslashit($link) . user_trailingslashit("page/$n", 'paged');
    }
    return add_query_arg('paged', $n, $link);
}
$posts = array(); $pages = array();
foreach (get_posts(array('numberposts' => -1, 'post_type' => 'post')) as $p) {
    $posts[] = array('path' => rel(get_permalink($p)), 'title' => get_the_title($p));
}
foreach (get_posts(array('numberposts' => -1, 'post_type' => 'page')) as $p) {
    $pages[] = array('path' => rel(get_permalink($p)), 'title' => get_the_title($p));
}
$lists = array('home' => paged($home, count($posts)));
foreach (get_categories() as $c) {
    $lists['category ' . $c->name] = paged(get_category_link($c), $c->count);
}
foreach (get_tags() as $t) { $lists['tag ' . $t->name] = paged(get_tag_link($t), $t->count); }
foreach (get_users(array('has_published_posts' => array('post'))) as $u) {
    $lists['author ' . $u->user_login] = paged(get_author_posts_url($u->ID),
                                               count_user_posts($u->ID));
}
global $wpdb;
$months = $wpdb->get_results("SELECT YEAR(post_date) y, MONTH(post_date) m, COUNT(*) n"
    . " FROM $wpdb->posts WHERE post_type = 'post' AND post_status = 'publish' GROUP BY y, m");
foreach ($months as $m) {
    $lists["month $m->y-$m->m"] = paged(get_month_link($m->y, $m->m), $m->n);
}
echo json_encode(array('posts' => $posts, 'pages' => $pages, 'lists' => $lists));
"""

_ROUTER_PHP = r"""<?php
$_SERVER['WORDPRESS_CONFIG'] = getenv('WPB_CONFIG');
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if (getenv('WPB_NO_SITEMAP') && strpos($path, '/wp-sitemap') === 0) {
    http_response_code(404); return;  // a WordPress whose sitemaps are off (or broken)
}
$file = '/usr/share/wordpress' . $path;
if ($path !== '/' && is_file($file) && substr($file, -4) !== '.php') { return false; }
if (substr($path, -4) === '.php' && is_file($file)) {
    chdir(dirname($file)); require $file; return;
}
chdir('/usr/share/wordpress');
$_SERVER['SCRIPT_NAME'] = '/index.php';
require '/usr/share/wordpress/index.php';
"""


def _config_name(site: SiteSpec) -> str:
    return f"sitesift-{site.name}"


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(8, 16))]
    return " ".join(words).capitalize() + "."


def _posts(site: SiteSpec) -> list[dict[str, object]]:
    rng = random.Random(site.seed)
    posts = []
    for i in range(site.posts):
        title = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 7))).capitalize()
        title = f"{title} ({i + 1})"  # distinct titles
        paragraphs = ["<!-- wp:paragraph -->\n<p>" + " ".join(_sentence(rng) for _ in range(
            rng.randint(3, 6))) + "</p>\n<!-- /wp:paragraph -->" for _ in range(rng.randint(3, 7))]
        day = 1 + i * 3
        posts.append({
            "title": title, "content": "\n\n".join(paragraphs),
            "author": rng.randrange(len(_AUTHORS)),
            "category": rng.randrange(len(_CATEGORIES)),
            "tags": rng.sample(_TAGS, rng.randint(0, 2)),
            "date": f"2024-{1 + day // 28:02d}-{1 + day % 28:02d} {8 + i % 10:02d}:15:00",
        })
    return posts


def available() -> str | None:
    """None if WordPress, PHP and a running MariaDB are here; else what is missing."""
    for need in ("php", "mysql"):
        if shutil.which(need) is None:
            return f"{need} is not installed"
    if not (WORDPRESS / "wp-settings.php").is_file():
        return "Debian's wordpress package is not installed"
    # Without SimpleXML WordPress answers /wp-sitemap.xml with a 501: the crawl then finds no
    # sitemap and the figures measure another site (no tag, author or block-theme category
    # pages), as on a fresh machine.
    modules = subprocess.run(["php", "-m"], capture_output=True, text=True, check=False)
    if "SimpleXML" not in modules.stdout:
        return "PHP's SimpleXML is missing (apt-get install php-xml): no sitemaps"
    probe = subprocess.run(["mysql", "-e", "SELECT 1"], capture_output=True, check=False)
    if probe.returncode:
        return "MariaDB is not running (service mariadb start)"
    return None


def setup(site: SiteSpec, host: str = "127.0.0.1:8080") -> dict[str, object]:
    """Create ``site`` from scratch (database, config, install, content); its gold."""
    db = f"sitesift_{site.name.replace('-', '_')}"
    sql = (f"DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db}; CREATE USER IF NOT EXISTS"
           f" '{DB_USER}'@'localhost' IDENTIFIED BY '{DB_PASSWORD}';"
           f" GRANT ALL ON {db}.* TO '{DB_USER}'@'localhost';")
    subprocess.run(["mysql", "-e", sql], check=True)
    (CONFIG_DIR / f"config-{_config_name(site)}.php").write_text(
        "<?php\n"
        f"define('DB_NAME', '{db}');\ndefine('DB_USER', '{DB_USER}');\n"
        f"define('DB_PASSWORD', '{DB_PASSWORD}');\ndefine('DB_HOST', 'localhost');\n"
        "define('WP_HOME', 'http://' . $_SERVER['HTTP_HOST']);\n"
        "define('WP_SITEURL', 'http://' . $_SERVER['HTTP_HOST']);\n"
        "define('DISABLE_WP_CRON', true);\ndefine('AUTOMATIC_UPDATER_DISABLED', true);\n"
        "define('WP_HTTP_BLOCK_EXTERNAL', true);\n"
    )
    spec = {
        "title": site.name.replace("-", " ").title(), "tagline": "A benchmark site",
        "theme": site.theme, "per_page": site.per_page, "permalinks": site.permalinks,
        "authors": list(_AUTHORS), "categories": list(_CATEGORIES), "posts": _posts(site),
    }
    with tempfile.TemporaryDirectory() as folder:
        spec_file = Path(folder) / "spec.json"
        spec_file.write_text(json.dumps(spec))
        env = {**os.environ, "WPB_HOST": host, "WPB_CONFIG": _config_name(site),
               "WPB_SPEC": str(spec_file)}
        for name, code in (("install.php", _INSTALL_PHP), ("gold.php", _GOLD_PHP)):
            (Path(folder) / name).write_text(code)
        subprocess.run(["php", str(Path(folder) / "install.php")], env=env, check=True,
                       capture_output=True)
        gold = subprocess.run(["php", str(Path(folder) / "gold.php")], env=env, check=True,
                              capture_output=True, text=True).stdout
    return json.loads(gold)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(site: SiteSpec, folder: Path, workers: int = 2,
          log: Path | None = None, sitemaps: bool = True) -> tuple[subprocess.Popen, str]:
    """``php -S`` for ``site`` on a free port (router in ``folder``; its request log to
    ``log``): the process, base URL. ``sitemaps=False``: ``/wp-sitemap*`` answers 404 (robots.txt
    still names it), as on a WordPress without PHP's SimpleXML or with sitemaps turned off.
    Stop it with ``os.killpg(process.pid, SIGKILL)``: its
    workers are child processes, in the process group it leads."""
    router = folder / "router.php"
    router.write_text(_ROUTER_PHP)
    port = _free_port()
    env = {**os.environ, "WPB_CONFIG": _config_name(site),
           "PHP_CLI_SERVER_WORKERS": str(workers),
           **({} if sitemaps else {"WPB_NO_SITEMAP": "1"})}
    process = subprocess.Popen(
        ["php", "-S", f"127.0.0.1:{port}", "-t", str(WORDPRESS), str(router)],
        env=env, stdout=subprocess.DEVNULL, start_new_session=True,
        stderr=open(log, "ab") if log else subprocess.DEVNULL,  # noqa: SIM115 - the child's
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process, base
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"php -S did not start for {site.name}")


if __name__ == "__main__":
    import argparse

    argparse.ArgumentParser(
        description="Says whether the WordPress sites of crawl.py --sites can be served here "
                    "(the module docstring says how to install them).").parse_args()
    problem = available()
    print(f"WordPress not ready: {problem}" if problem else "WordPress ready: "
          + ", ".join(site.name for site in SITES))
