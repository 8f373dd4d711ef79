// The colours of chart series: Paul Tol's discrete rainbow scheme for 12 colours (SRON technical
// note "Colour schemes", 2021), distinct for the common forms of colour blindness. Ordered so
// that a chart of few series uses the most contrasting ones first; the three pale ones come
// last, and lines are drawn on a grey outline so that they stay visible on white.
#pragma once

#include <cstddef>

namespace tco::svg {

inline constexpr const char* kPalette[12] = {"#1965B0", "#DC050C", "#4EB265", "#882E72", "#E8601C", "#7BAFDE",
                                             "#AE76A3", "#F4A736", "#5289C7", "#CAE0AB", "#D1BBD7", "#F7F056"};
inline constexpr std::size_t kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);

// Series i's colour; beyond 12 series the colours repeat (a chart then also relies on its labels).
inline const char* series_color(std::size_t i) { return kPalette[i % kPaletteSize]; }

}  // namespace tco::svg
