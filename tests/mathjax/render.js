// Reads a JSON list of card fields (HTML) on stdin and writes, for each field, the MathML
// that MathJax 3 makes of every formula it finds there: as Anki does, \( \) and \[ \]
// delimiters outside <code>, <pre> and the other tags MathJax skips, TeX input with every
// package a card could load.
const { mathjax } = require("mathjax-full/js/mathjax.js");
const { TeX } = require("mathjax-full/js/input/tex.js");
const { AllPackages } = require("mathjax-full/js/input/tex/AllPackages.js");
const { liteAdaptor } = require("mathjax-full/js/adaptors/liteAdaptor.js");
const { RegisterHTMLHandler } = require("mathjax-full/js/handlers/html.js");
const { SerializedMmlVisitor } = require("mathjax-full/js/core/MmlTree/SerializedMmlVisitor.js");

RegisterHTMLHandler(liteAdaptor());
const visitor = new SerializedMmlVisitor();

function formulas(html) {
  const tex = new TeX({
    // bussproofs needs an output jax that measures boxes; it draws proof trees, not links.
    packages: AllPackages.filter((name) => name !== "bussproofs"),
    inlineMath: [["\\(", "\\)"]],
    displayMath: [["\\[", "\\]"]],
    processEscapes: false,
  });
  const doc = mathjax.document(`<html><body>${html}</body></html>`, { InputJax: tex });
  doc.findMath().compile();
  return Array.from(doc.math).map((item) => visitor.visitTree(item.root));
}

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  process.stdout.write(JSON.stringify(JSON.parse(input).map(formulas)));
});
