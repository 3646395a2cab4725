// Pages that update themselves (the public page, the projector screen, a series' page, the desk):
// an element — the body, or the desk's panel — carries data-live (its event stream),
// data-revision (what the page shows) and optionally data-live-parts (the selectors of what to
// swap; by default the header and main). Each "changed" event fetches the page again and swaps
// those parts in place: no reload, no polling. Round clocks ([data-clock]) count down to their end as the server's time sees it. Words
// come from the page's catalogue (gettext(), /i18n/<language>/catalog.js, loaded before).
"use strict";

(() => {
  const live = document.querySelector("[data-live]");
  if (!(live instanceof HTMLElement)) return;
  const parts = (live.dataset.liveParts ?? "header main").split(" ");

  /** @type {WeakMap<HTMLElement, number>} clock element -> performance.now() when it was drawn */
  const seen = new WeakMap();

  /** @param {HTMLElement} clock */
  function secondsLeft(clock) {
    if (clock.dataset.pausedRemaining !== "") return Number(clock.dataset.pausedRemaining);
    if (!seen.has(clock)) seen.set(clock, performance.now());
    const serverNow = Date.parse(clock.dataset.now ?? "") + (performance.now() - (seen.get(clock) ?? 0));
    return (Date.parse(clock.dataset.endsAt ?? "") - serverNow) / 1000;
  }

  /** @param {number} seconds */
  function shown(seconds) {
    const whole = Math.max(Math.ceil(seconds), 0);
    const hours = Math.floor(whole / 3600);
    const minutes = Math.floor((whole % 3600) / 60);
    const rest = String(whole % 60).padStart(2, "0");
    return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
  }

  function tick() {
    for (const clock of document.querySelectorAll("[data-clock]")) {
      if (!(clock instanceof HTMLElement)) continue;
      const seconds = secondsLeft(clock);
      const paused = clock.dataset.pausedRemaining !== "";
      clock.textContent = shown(seconds) + (paused ? ` ${gettext("(paused)")}` : "");
      clock.classList.toggle("over", seconds <= 0);
    }
  }

  let fetching = false;
  let again = false;

  async function refresh() {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      const answer = await fetch(location.href, { cache: "no-store", credentials: "same-origin" });
      if (!answer.ok) return;
      // The fresh page's own <style> (the admin's, marked with that answer's nonce) is not one of
      // the parts swapped in, and parsing it here would be refused by this page's policy.
      const html = (await answer.text()).replace(/<style[^>]*>[\s\S]*?<\/style>/g, "");
      const fresh = new DOMParser().parseFromString(html, "text/html");
      for (const part of parts) {
        const now = document.querySelector(part);
        const next = fresh.querySelector(part);
        if (!now || !next) continue;
        // Someone typing in a field of this part (the desk's clock minutes) keeps it until they
        // leave the field; it is read again then.
        const typing = document.activeElement;
        if (typing instanceof HTMLInputElement || typing instanceof HTMLSelectElement || typing instanceof HTMLTextAreaElement) {
          if (now.contains(typing)) {
            typing.addEventListener("blur", refresh, { once: true });
            continue;
          }
        }
        now.replaceWith(document.adoptNode(next));
      }
      tick();
    } finally {
      fetching = false;
      if (again) {
        again = false;
        refresh();
      }
    }
  }

  const stream = new EventSource(`${live.dataset.live}?after=${live.dataset.revision}`);
  stream.addEventListener("changed", refresh);
  tick();
  setInterval(tick, 250);
})();
