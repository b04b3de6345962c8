// Family colour swatches: the colour comes in data-colour, since the Content-Security-Policy
// refuses inline style attributes (setting a style from a script file is allowed).
document.querySelectorAll(".swatch[data-colour]").forEach((swatch) => {
  swatch.style.background = swatch.dataset.colour;
});
