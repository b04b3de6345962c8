// Formats numbers the way benchmarks/units.py does (Scale.format, significant): the rules
// (digits, prefixes) and each axis's scale come from the server; tests/pages check that both
// write the same text for the same numbers.
window.PricebenchUnits = (function () {
  "use strict";

  function exponent(number) {
    let power = Math.floor(Math.log10(number));
    while (Math.pow(10, power) > number) power -= 1;
    while (Math.pow(10, power + 1) <= number) power += 1;
    return power;
  }

  // toFixed rounds the exact binary value, ties away from zero: as units._fixed does.
  function significant(value, rules, prefixed, small) {
    if (value === 0) return ["0", ""];
    const sign = value < 0 ? "-" : "";
    const size = Math.abs(value);
    let ladder = [[1, ""]];
    if (prefixed) ladder = [...rules.large, [1, ""], ...(small ? rules.small : [])];
    let index = ladder.findIndex(([step]) => size >= step);
    if (index < 0) index = ladder.length - 1;
    let text;
    for (;;) {
      const step = ladder[index][0];
      const scaled = size / step;
      const decimals = Math.max(0, rules.digits - 1 - exponent(scaled));
      text = scaled.toFixed(decimals);
      if (Number(text) >= 1000 && index > 0) {
        index -= 1;
        continue;
      }
      break;
    }
    if (text.includes(".")) text = text.replace(/0+$/, "").replace(/\.$/, "");
    return [sign + text, ladder[index][1]];
  }

  function format(value, scale, rules) {
    if (value === null || value === undefined || !Number.isFinite(Number(value))) return "—";
    const [number, prefix] = significant(Number(value) * scale.factor, rules,
                                         scale.prefixed, scale.small);
    const unit = scale.symbol ? prefix + scale.unit
                              : [prefix, scale.unit].filter((part) => part).join(" ");
    return (number + " " + unit).trimEnd() + scale.suffix;
  }

  // As units.percent: a ratio to a baseline as a whole percentage.
  function percent(ratio) {
    if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return "—";
    return (ratio < 0 ? "-" : "") + (Math.abs(ratio) * 100).toFixed(0) + "%";
  }

  return { format: format, significant: significant, percent: percent };
})();
