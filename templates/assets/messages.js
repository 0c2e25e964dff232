/* konum's interface texts in the page's language, for every konum script of the page.
 *
 * konum.messages writes the sections a page uses as JSON into
 * <template data-konum-messages>, just before the scripts. konumText(key, fields, number)
 * returns the text of "section.name" with its {name} fields filled in (numbers through
 * `number` when it is given) and, for a text with plural forms ({one: ..., few: ...,
 * other: ...}), the form of fields.n's CLDR category in the page's language
 * (Intl.PluralRules, the rules konum.messages takes from Babel), "other" when it has none.
 * The texts are read again when instant navigation brings another page's template, so a
 * page with other sections (an exam, the study page) never reads the first page's.
 */
(function () {
  "use strict";
  if (window.konumText) return;
  var box = null, texts = {}, rules = {};
  function category(n) {
    var lang = document.documentElement.lang || "en";
    if (!rules[lang]) rules[lang] = new Intl.PluralRules(lang);
    return typeof n === "number" ? rules[lang].select(n) : "other";
  }
  window.konumText = function (key, fields, number) {
    /* Looked for again only once instant navigation has taken the page's template away:
     * a query per text would walk the whole page each time. */
    if (!box || !box.isConnected) {
      box = document.querySelector("template[data-konum-messages]");
      var script = box && box.content.querySelector("script");
      texts = script ? JSON.parse(script.textContent) : {};
    }
    var text = texts[key] || key;
    if (typeof text === "object") text = text[category(fields && fields.n)] || text.other;
    return text.replace(/\{(\w+)\}/g, function (all, name) {
      if (!fields || !(name in fields)) return all;
      var value = fields[name];
      return number && typeof value === "number" ? number(value) : String(value);
    });
  };
})();
