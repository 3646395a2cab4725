// Cards that travel: before the page is drawn again, where each thing that can move stands
// (elements with `data-flip`: a card by its code, a piece by its seat, a seat's hand, the stock);
// after, each that stands elsewhere glides from where it was (FLIP: first, last, invert, play).
// Something new comes from where the events say: a card played by another seat from that seat's
// hand, a card drawn from the stock. Nothing moves under `prefers-reduced-motion`: the table's
// state then says so (`motion`), and the page does not call `glide`.

/** @typedef {Map<string, DOMRect>} Snapshot */

const MILLISECONDS = 320;

/** Whether the person asked their system for less motion. */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Where each thing that can move stands now.
 *
 * @param {Element} root
 * @returns {Snapshot}
 */
export function snapshot(root) {
  /** @type {Snapshot} */
  const places = new Map();
  for (const element of root.querySelectorAll("[data-flip]")) {
    places.set(/** @type {HTMLElement} */ (element).dataset.flip ?? "", element.getBoundingClientRect());
  }
  return places;
}

/**
 * Glide what moved since `before` from its old place; what is new from `origin(key)`, if given.
 *
 * @param {Element} root
 * @param {Snapshot} before
 * @param {(key: string) => string | null} origin the key of the place a new thing comes from
 */
export function glide(root, before, origin) {
  for (const element of root.querySelectorAll("[data-flip]")) {
    const key = /** @type {HTMLElement} */ (element).dataset.flip ?? "";
    const from = before.get(key) ?? before.get(origin(key) ?? "");
    if (!from) {
      continue;
    }
    const to = element.getBoundingClientRect();
    const dx = from.left - to.left;
    const dy = from.top - to.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) {
      continue;
    }
    const scale = to.width > 0 ? from.width / to.width : 1;
    element.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, zIndex: 5 },
        { transform: "none", zIndex: 5 },
      ],
      { duration: MILLISECONDS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" },
    );
  }
}
