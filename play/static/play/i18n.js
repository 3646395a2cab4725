// Words for people, in the page's language: Django's JavaScript catalogue (`JavaScriptCatalog`,
// loaded by the page before its modules) defines `gettext`, `ngettext`, `pgettext` and
// `interpolate` globally; without it (a test in Node, a page served before the catalogue is
// wired) these fall back to the English they are given, with the same interpolation.

/** @type {any} */
const django = globalThis;

/**
 * @param {string} message
 * @returns {string}
 */
export function gettext(message) {
  return typeof django.gettext === "function" ? django.gettext(message) : message;
}

/**
 * @param {string} singular
 * @param {string} plural
 * @param {number} count
 * @returns {string}
 */
export function ngettext(singular, plural, count) {
  return typeof django.ngettext === "function"
    ? django.ngettext(singular, plural, count)
    : count === 1
      ? singular
      : plural;
}

/**
 * A message told apart from the same English words elsewhere by its context.
 *
 * @param {string} context
 * @param {string} message
 * @returns {string}
 */
export function pgettext(context, message) {
  return typeof django.pgettext === "function" ? django.pgettext(context, message) : message;
}

/**
 * Django's `interpolate`: `%(name)s` from an object, or each `%s` from a list in turn.
 *
 * @param {string} format
 * @param {Record<string, unknown>} values
 * @returns {string}
 */
export function interpolate(format, values) {
  return format.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
}

/**
 * "3 cards": `ngettext`'s form for the count (written out where it is called, so that the
 * catalogue finds it), with `%(count)s` filled in.
 *
 * @param {number} count
 * @param {string} form e.g. `ngettext("%(count)s card", "%(count)s cards", count)`
 */
export function counted(count, form) {
  return interpolate(form, { count });
}

/** The page's language ("en", "fr"), from `<html lang>`. */
export function language() {
  return (typeof document === "undefined" ? "" : document.documentElement.lang) || "en";
}

/**
 * "1st", "2nd" … ("1er", "2e" … in French): the language's ordinal category picks the form.
 *
 * @param {number} n
 */
export function ordinal(n) {
  const forms = {
    one: pgettext("ordinal, as 1st, 21st", "%(n)sst"),
    two: pgettext("ordinal, as 2nd, 22nd", "%(n)snd"),
    few: pgettext("ordinal, as 3rd, 23rd", "%(n)srd"),
  };
  const category = new Intl.PluralRules(language(), { type: "ordinal" }).select(n);
  const form = /** @type {Record<string, string>} */ (forms)[category] ?? pgettext("ordinal, as 4th, 11th", "%(n)sth");
  return interpolate(form, { n });
}
