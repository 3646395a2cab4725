// What Django's JavaScript catalogue (`JavaScriptCatalog`, a classic script the pages load before
// their own) defines globally: the pages' scripts call these (play/ through static/play/i18n.js).

declare function gettext(message: string): string;
declare function ngettext(singular: string, plural: string, count: number): string;
declare function pgettext(context: string, message: string): string;
declare function interpolate(format: string, values: unknown[] | Record<string, unknown>, named?: boolean): string;
