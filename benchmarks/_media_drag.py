"""The images benchmark's drag of the global slider over steps fetched and decoded ahead.

Kept apart from ``bench_media.py`` (which drives JupyterLab): :func:`settle` waits until
the images widget has nothing pending, :func:`prefetched_drag` visits a window of steps
and drags the global slider over it under a trace (``_frames.py``).
"""

from __future__ import annotations

from typing import Any

from _frames import drag_frames


def settle(page: Any, timeout_ms: int) -> None:
    """Wait until the images widget has nothing queued, in flight or decoding."""
    page.wait_for_function(
        "() => document.querySelector('.tbnb-w-images').dataset.pending === '0'",
        timeout=timeout_ms,
        polling=50,
    )


GLOBAL_RANGE = ".tbnb-w-images .tbnb-global-step input[type=range]"

# Every animation frame during a drag: are all cards in view showing a drawn image?
WATCH_JS = """() => { const root = document.querySelector('.tbnb-w-images');
  const inView = (c) => { const r = c.getBoundingClientRect();
    return !c.hidden && r.height > 0 && r.bottom > 0 && r.top < innerHeight; };
  window.__tbnbReady = []; const tick = () => { if (window.__tbnbReady === null) return;
    const cards = [...root.querySelectorAll('.tbnb-card')].filter(inView);
    window.__tbnbReady.push(cards.every((c) => c.dataset.state === 'ready'));
    requestAnimationFrame(tick); }; requestAnimationFrame(tick); }"""

SET_JS = """(e, v) => { e.value = String(v);
  e.dispatchEvent(new Event('input', { bubbles: true })); }"""


def prefetched_drag(page: Any, span: int, timeout_ms: int) -> dict[str, Any]:
    """Drag the global slider over ``span`` steps every card in view has fetched and decoded.

    The window below the shown step is visited first (every 4th step, each time until
    nothing is pending: the cards' neighbours are prefetched and decoded), then dragged
    over with real mouse events, four passes at half a pixel per move (the 260-pixel
    slider holds 500 steps), under a trace (see ``_frames.py``).
    """
    start = int(page.eval_on_selector(GLOBAL_RANGE, "e => Number(e.value)"))
    for k in [*range(0, span + 1, 4), 0]:
        page.eval_on_selector(GLOBAL_RANGE, SET_JS, start - k)
        settle(page, timeout_ms)
    page.evaluate(WATCH_JS)
    result = drag_frames(page, GLOBAL_RANGE, span=span, passes=4, px_per_move=0.5)
    ready = page.evaluate(
        "() => { const r = window.__tbnbReady; window.__tbnbReady = null; return r; }"
    )
    result["frames_all_cards_ready"] = round(sum(ready) / max(len(ready), 1), 3)
    return result
