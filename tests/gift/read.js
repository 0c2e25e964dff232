// Reads GIFT text on stdin and prints what gift-pegjs parses, as JSON (tests/test_gift.py).
const { parse } = require("gift-pegjs/lib/gift-parser.js");

let source = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { source += chunk; });
process.stdin.on("end", () => { process.stdout.write(JSON.stringify(parse(source))); });
