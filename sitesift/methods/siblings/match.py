"""Steps 4 and 5 of paper 004: the state machine that matches a block's string T against a
subtree of a sibling's string S (``normal``, ``s_move``, ``t_move``, Reset), with the second
verification (one subtree of S, equal relative depths) checked pair by pair."""

from __future__ import annotations

from typing import NamedTuple

from sitesift.methods.siblings.strings import NodeString, _Subtree

__all__ = ["MAX_SLIDE", "TAG_SIMILARITY", "TEXT_SIMILARITY", "Match", "match_subtree"]

#: The paper's thresholds (alpha, beta) and MAX slide; ``Options`` carries the ones in use.
TAG_SIMILARITY = 0.8
TEXT_SIMILARITY = 0.6
MAX_SLIDE = 3

# -- 4, 5. subtree matching --------------------------------------------------------------------

NORMAL, S_MOVE, T_MOVE = 0, 1, 2


class Match(NamedTuple):
    """Best match of a block in one sibling page."""

    tag_similarity: float
    text_similarity: float


def match_subtree(
    t: NodeString, sub: _Subtree, s: NodeString, root: int, *, max_slide: int = MAX_SLIDE,
    min_tag: float = 0.0,
) -> Match | None:
    """Match T (``sub`` of ``t``) against the subtree of ``s`` at ``root`` with the paper's
    state machine; None when the second verification fails, or (``min_tag``) as soon as
    Tag_similarity can no longer reach ``min_tag``: a caller's threshold, which every failed
    candidate would otherwise be matched to its end to miss. The verification is checked
    pair by pair (a pair at unequal depths fails the whole match), not over all pairs after."""
    t_start, t_stop = sub.start, sub.stop
    s_start = root if sub.rooted else root + 1
    s_stop = s.ends[root]
    t_tags, s_tags, t_ends, s_ends = t.tags, s.tags, t.ends, s.ends
    t_depths, s_depths = t.depths, s.depths
    shift = s_depths[root] - t_depths[sub.base]  # equal depths relative to the two roots
    t_texts, s_texts, t_weights = t.texts, s.texts, t.weights
    size = t_stop - t_start
    if size and not shift and (same := _same_shape(t, t_start, t_stop, s, s_start, s_stop)):
        return same
    # The pairs are counted, not kept: the first one (for the second verification below),
    # how many, and the text weight of those whose texts are equal (TextMatch).
    paired, first, matched_text = 0, None, 0
    i, j = s_start, t_start
    state, steps = NORMAL, 0
    save_i, save_j = i, j
    while j < t_stop and i < s_stop:
        if s_tags[i] == t_tags[j]:
            if s_depths[i] - t_depths[j] != shift:
                return None  # (second verification)
            if not paired:
                first = (j, i)
            paired += 1
            h = t_texts[j]
            if h and h == s_texts[i]:
                matched_text += t_weights[j]
            i, j = i + 1, j + 1
            state, steps = NORMAL, 0
            continue
        if state == NORMAL:
            # Pairs take the nodes of T and of S in order, one each, and the slides from here
            # come back to (i, j) at the lowest: at most the nodes from j on in T, and from i
            # on in S, are still to pair.
            if (paired + min(t_stop - j, s_stop - i)) / size < min_tag:
                return None
            save_i, save_j, state, steps = i, j, S_MOVE, 0
        if state == S_MOVE:
            if steps < max_slide and s_ends[i] < s_stop:
                i, steps = s_ends[i], steps + 1  # Move(S, i): slide over one subtree of S
                continue
            i, j, state, steps = save_i, save_j, T_MOVE, 0  # Reset
        if state == T_MOVE:
            if steps < max_slide and t_ends[j] < t_stop:
                j, steps = t_ends[j], steps + 1  # Move(T, j): slide over one subtree of T
                continue
            # Neither slide finds a partner: both nodes stay unmatched, go on after them.
            i, j, state, steps = s_ends[save_i], t_ends[save_j], NORMAL, 0
    if not paired or (sub.rooted and first != (t_start, root)):
        return None  # (second verification: a block's own root pairs with the candidate's)
    total_text = t.text_weight(t_start, t_stop)
    return Match(
        tag_similarity=paired / size,
        text_similarity=matched_text / total_text if total_text else 1.0,
    )


def _same_shape(t: NodeString, t_start: int, t_stop: int, s: NodeString, s_start: int,
                s_stop: int) -> Match | None:
    """The match of two runs of the same shape (tags and depths), else None.

    A menu or footer of the site's template, or the same frame with other texts: the walk of
    ``match_subtree`` pairs every node in turn, never leaving NORMAL, and the first pair is the
    two roots; so Tag_similarity 1, and TextMatch the weight of the pairs whose texts are equal
    (all of T's when the texts are: a text node's hash is never 0). Slices compare in C; the
    walk is Python, node by node."""
    if t_stop - t_start != s_stop - s_start \
            or t.tags[t_start:t_stop] != s.tags[s_start:s_stop] \
            or t.depths[t_start:t_stop] != s.depths[s_start:s_stop]:
        return None
    total_text = t.text_weight(t_start, t_stop)
    if t.texts[t_start:t_stop] == s.texts[s_start:s_stop]:
        matched_text = total_text
    else:
        pairs = zip(t.texts[t_start:t_stop], s.texts[s_start:s_stop],
                    t.weights[t_start:t_stop], strict=True)
        matched_text = sum(w for h, other, w in pairs if h and h == other)
    return Match(tag_similarity=1.0,
                 text_similarity=matched_text / total_text if total_text else 1.0)
