"""Screen sizes the page tests open Chromium at."""

# A phone's screen, as issue 54 measured the first screen (375 x 667).
PHONE = {"width": 375, "height": 667}
