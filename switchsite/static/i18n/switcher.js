// The language switcher of a page whose address is a secret (a seat link): the page's HTML leaves
// the address out, and the switcher sends it back to the same page from the browser's location.
"use strict";

for (const form of document.querySelectorAll("form.language-switcher")) {
  form.addEventListener("submit", () => {
    form.elements.next.value = location.pathname + location.search;
  });
}
