"""Noise removal by similarity with same-layer pages (paper 004, Yuan et al. 2006).

Pages in one URL directory of a site ("same-layer" pages) are built alike: a block of the target
page that nearly reappears in a same-layer page is navigation, header, footer or another
template part, i.e. noise. The method, top to bottom:

1. Same layer (``layer.same_layer``): the site's pages sharing the longest URL directory prefix with
   the target; widened to shorter prefixes until ``MIN_SIBLINGS`` pages are in, the whole site
   when URLs are unknown or share nothing.
2. Node strings (``strings.NodeString``): a depth-first walk turns each page's DOM into a string of
   nodes, each with its depth (the paper keeps "the depth of every node"). Text nodes are nodes
   too (tag ``#text``), so a block's text is matched where it sits.
3. Subtrees to match (``strings._subtree``): the block tree of ``sitesift.segment.blocks``
   (our DOM VIPS).
4. ``match.match_subtree``: the paper's state machine over a block's string T and a sibling's
   string S. ``normal``: equal tags match, the text of equal text nodes counts (TextMatch);
   a mismatch switches to ``s_move``, sliding over up to MAX subtrees of S; failing that, back
   to where the slide began and ``t_move`` slides over up to MAX subtrees of T; failing that
   too, both nodes stay unmatched and matching goes on after them (the paper's Reset).
   Tag_similarity = matched nodes / |T|, Text_similarity = matched text / text of T.
5. Second verification (in ``match_subtree``, pair by pair): the matched nodes of S must lie
   in one subtree (the candidate root's) and every matched pair must have equal depths
   relative to its root; the paper's figure 1 shows two different trees with one DFS string,
   which this rules out.
6. A block with Tag_similarity >= alpha and Text_similarity >= beta (paper: 0.8, 0.6) in
   ``MIN_MATCH_SHARE`` of its same-layer pages (at least 1, at most ``MAX_NEEDED_MATCHES``) is
   noise (``site.SiblingSite.judge``).
7. ``clean.clean_content``: the noise blocks are deleted from the page extractor's main block.

Speed, for 100 siblings per page: the paper scans S from every start (``i = i-j+1``). Here the
site's text nodes are indexed once (text hash -> positions in all pages). A match with
Text_similarity >= beta must pair at least one of T's heaviest texts whose weights add up to
more than (1 - beta) of T's text, at an equal relative depth; so the only candidate roots in S
are the ancestors, that many levels up, of the occurrences of those "anchor" texts. A block is
compared with a handful of candidates per sibling instead of every position; a sibling stops
being searched at its first verified match, and a block once enough siblings matched or too
few are left to. Text found in no sibling at all bounds Text_similarity from above: a block
with more of it than it may leave unmatched is not searched at all (most content blocks).

Decisions go top-down on the block tree (the paper matches VIPS subtrees, which are coarse):
a container is noise as a whole only when it matches with at most
``CONTAINER_MAX_UNMATCHED`` characters of its text unmatched, else its children are decided
one by one, so an article box that shares its headings and share bar with its siblings is never
thrown away for what it shares.

What the paper leaves open, blocks that change on every page but are noise (ads, "related"
lists): a link-dense block (``VARYING_MIN_LINK_DENSITY``) whose *structure* (Tag_similarity
alone) matches a block of the same tag, class and id in at least ``VARYING_MIN_PAGES`` siblings
is a recurring list of links whose items change: noise too.

Modules, in the order above: ``layer``, ``strings``, ``match``, ``site``, ``clean``; ``method``
puts them behind the site-level interface (``sitesift.methods.interface``).
"""
