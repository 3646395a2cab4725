// Building the page: one small element factory instead of a framework. Each part of a page is a
// function from the data it shows to fresh elements; the caller swaps them in.

/** @typedef {Node | string | number | null | undefined | false} Child */
/** @typedef {string | number | boolean | null | undefined | ((event: Event) => void)} AttributeValue */

/**
 * An element with attributes and children. `on<event>` attributes given a function become
 * listeners; `true` sets an empty attribute, and `false`, `null` and `undefined` leave it out.
 * Strings become text nodes, never markup.
 *
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttributeValue>} [attributes]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (value === true) {
      element.setAttribute(name, "");
    } else if (value !== false && value !== null && value !== undefined) {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

/**
 * @param {Element} parent
 * @param {(Child | Child[])[]} children
 */
function append(parent, children) {
  for (const child of children) {
    if (Array.isArray(child)) {
      append(parent, child);
    } else if (child instanceof Node) {
      parent.append(child);
    } else if (child !== null && child !== undefined && child !== false) {
      parent.append(String(child));
    }
  }
}

/**
 * Replace the children of `parent`.
 *
 * @param {Element} parent
 * @param {...(Child | Child[])} children
 */
export function fill(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * The element with this id, which the page's template must have.
 *
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const element = document.getElementById(id);
  if (element === null) {
    throw new Error(`the page has no #${id}`);
  }
  return element;
}

/**
 * "1 card", "3 cards".
 *
 * @param {number} count
 * @param {string} noun
 * @param {string} [plural]
 */
export function plural(count, noun, plural = `${noun}s`) {
  return `${count} ${count === 1 ? noun : plural}`;
}

/**
 * "1st", "2nd", "3rd", "4th" …
 *
 * @param {number} n
 */
export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) {
    return `${n}th`;
  }
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th"}`;
}
