#include "cli/Plot.h"

#include <stb_image_write.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>

namespace tinkerbox {

namespace {

struct Rgb {
    std::uint8_t r, g, b;
};

constexpr Rgb kBackground{255, 255, 255};
constexpr Rgb kInk{40, 40, 48};
constexpr Rgb kGrid{222, 224, 230};
// One colour per series, told apart in colour and in grey.
constexpr std::array<Rgb, 8> kPalette = {{{230, 120, 20},
                                          {30, 100, 220},
                                          {30, 150, 60},
                                          {180, 40, 170},
                                          {200, 30, 40},
                                          {20, 160, 170},
                                          {120, 90, 40},
                                          {110, 110, 110}}};

// A 5 x 7 bitmap font: the lower-case letters, digits and the signs tick labels and titles
// use, and J for joules; other upper case is drawn as lower case, anything else as a space.
struct Glyph {
    char c;
    std::array<const char*, 7> rows;
};

constexpr Glyph kFont[] = {
    {'0', {" ### ", "#   #", "#  ##", "# # #", "##  #", "#   #", " ### "}},
    {'1', {"  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "}},
    {'2', {" ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####"}},
    {'3', {"#####", "   # ", "  #  ", "   # ", "    #", "#   #", " ### "}},
    {'4', {"   # ", "  ## ", " # # ", "#  # ", "#####", "   # ", "   # "}},
    {'5', {"#####", "#    ", "#### ", "    #", "    #", "#   #", " ### "}},
    {'6', {"  ## ", " #   ", "#    ", "#### ", "#   #", "#   #", " ### "}},
    {'7', {"#####", "    #", "   # ", "  #  ", " #   ", " #   ", " #   "}},
    {'8', {" ### ", "#   #", "#   #", " ### ", "#   #", "#   #", " ### "}},
    {'9', {" ### ", "#   #", "#   #", " ####", "    #", "   # ", " ##  "}},
    {'a', {"     ", "     ", " ### ", "    #", " ####", "#   #", " ####"}},
    {'b', {"#    ", "#    ", "# ## ", "##  #", "#   #", "#   #", "#### "}},
    {'c', {"     ", "     ", " ### ", "#    ", "#    ", "#   #", " ### "}},
    {'d', {"    #", "    #", " ## #", "#  ##", "#   #", "#   #", " ####"}},
    {'e', {"     ", "     ", " ### ", "#   #", "#####", "#    ", " ### "}},
    {'f', {"  ## ", " #  #", " #   ", "###  ", " #   ", " #   ", " #   "}},
    {'g', {"     ", " ####", "#   #", "#   #", " ####", "    #", " ### "}},
    {'h', {"#    ", "#    ", "# ## ", "##  #", "#   #", "#   #", "#   #"}},
    {'i', {"  #  ", "     ", " ##  ", "  #  ", "  #  ", "  #  ", " ### "}},
    {'j', {"   # ", "     ", "  ## ", "   # ", "   # ", "#  # ", " ##  "}},
    {'k', {"#    ", "#    ", "#  # ", "# #  ", "##   ", "# #  ", "#  # "}},
    {'l', {" ##  ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "}},
    {'m', {"     ", "     ", "## # ", "# # #", "# # #", "#   #", "#   #"}},
    {'n', {"     ", "     ", "# ## ", "##  #", "#   #", "#   #", "#   #"}},
    {'o', {"     ", "     ", " ### ", "#   #", "#   #", "#   #", " ### "}},
    {'p', {"     ", "     ", "#### ", "#   #", "#### ", "#    ", "#    "}},
    {'q', {"     ", "     ", " ## #", "#  ##", " ####", "    #", "    #"}},
    {'r', {"     ", "     ", "# ## ", "##  #", "#    ", "#    ", "#    "}},
    {'s', {"     ", "     ", " ####", "#    ", " ### ", "    #", "#### "}},
    {'t', {" #   ", " #   ", "###  ", " #   ", " #   ", " #  #", "  ## "}},
    {'u', {"     ", "     ", "#   #", "#   #", "#   #", "#  ##", " ## #"}},
    {'v', {"     ", "     ", "#   #", "#   #", "#   #", " # # ", "  #  "}},
    {'w', {"     ", "     ", "#   #", "#   #", "# # #", "# # #", " # # "}},
    {'x', {"     ", "     ", "#   #", " # # ", "  #  ", " # # ", "#   #"}},
    {'y', {"     ", "     ", "#   #", "#   #", " ####", "    #", " ### "}},
    {'z', {"     ", "     ", "#####", "   # ", "  #  ", " #   ", "#####"}},
    {'J', {"  ###", "    #", "    #", "    #", "    #", "#   #", " ### "}},
    {'.', {"     ", "     ", "     ", "     ", "     ", " ##  ", " ##  "}},
    {',', {"     ", "     ", "     ", "     ", " ##  ", "  #  ", " #   "}},
    {':', {"     ", " ##  ", " ##  ", "     ", " ##  ", " ##  ", "     "}},
    {'-', {"     ", "     ", "     ", "#####", "     ", "     ", "     "}},
    {'+', {"     ", "  #  ", "  #  ", "#####", "  #  ", "  #  ", "     "}},
    {'=', {"     ", "     ", "#####", "     ", "#####", "     ", "     "}},
    {'/', {"     ", "    #", "   # ", "  #  ", " #   ", "#    ", "     "}},
    {'(', {"   # ", "  #  ", " #   ", " #   ", " #   ", "  #  ", "   # "}},
    {')', {" #   ", "  #  ", "   # ", "   # ", "   # ", "  #  ", " #   "}},
    {'|', {"  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  "}},
    {'_', {"     ", "     ", "     ", "     ", "     ", "     ", "#####"}},
};

constexpr int kScale = 2;             // font pixels per glyph pixel
constexpr int kAdvance = 6 * kScale;  // a glyph and its gap
constexpr int kTextHeight = 7 * kScale;

const Glyph* glyphFor(char c) {
    for (const Glyph& g : kFont)
        if (g.c == c) return &g;
    const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const Glyph& g : kFont)
        if (g.c == lower) return &g;
    return nullptr;
}

int textWidth(const std::string& text) { return static_cast<int>(text.size()) * kAdvance - kScale; }

struct Rect {
    int left, top, right, bottom;  // inclusive
};

class Canvas {
public:
    Canvas(int width, int height) : width_(width), height_(height), rgb_(3 * width * height) {
        fill({0, 0, width - 1, height - 1}, kBackground);
    }

    void set(int x, int y, Rgb c) {
        if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
        std::uint8_t* p = &rgb_[3 * (static_cast<std::size_t>(y) * width_ + x)];
        p[0] = c.r;
        p[1] = c.g;
        p[2] = c.b;
    }
    void fill(const Rect& r, Rgb c) {
        for (int y = r.top; y <= r.bottom; ++y)
            for (int x = r.left; x <= r.right; ++x) set(x, y, c);
    }
    // Bresenham's line with a square brush of `thickness` pixels.
    void line(int x0, int y0, int x1, int y1, Rgb c, int thickness = 1) {
        const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
        const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
        int error = dx + dy;
        for (;;) {
            for (int oy = 0; oy < thickness; ++oy)
                for (int ox = 0; ox < thickness; ++ox) set(x0 + ox - thickness / 2, y0 + oy - thickness / 2, c);
            if (x0 == x1 && y0 == y1) return;
            const int e2 = 2 * error;
            if (e2 >= dy) {
                error += dy;
                x0 += sx;
            }
            if (e2 <= dx) {
                error += dx;
                y0 += sy;
            }
        }
    }
    void text(int x, int y, const std::string& s, Rgb c) {
        for (char ch : s) {
            if (const Glyph* g = glyphFor(ch))
                for (int row = 0; row < 7; ++row)
                    for (int col = 0; col < 5; ++col)
                        if (g->rows[row][col] == '#')
                            fill({x + col * kScale, y + row * kScale, x + col * kScale + kScale - 1,
                                  y + row * kScale + kScale - 1},
                                 c);
            x += kAdvance;
        }
    }
    bool writePng(const std::string& file) const {
        return stbi_write_png(file.c_str(), width_, height_, 3, rgb_.data(), 3 * width_) != 0;
    }

private:
    int width_, height_;
    std::vector<std::uint8_t> rgb_;
};

// A tick spacing of 1, 2 or 5 times a power of ten giving about `count` ticks over span.
double niceStep(double span, int count) {
    const double raw = span / count;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * power >= raw) return m * power;
    return 10.0 * power;
}

std::string label(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
    return buffer;
}

// The part of the segment a-b inside r (Liang and Barsky, "A New Concept and Method for
// Line Clipping", ACM TOG 3(1), 1984), in pixels.
std::optional<std::array<double, 4>> clip(double x0, double y0, double x1, double y1, const Rect& r) {
    double t0 = 0.0, t1 = 1.0;
    const double dx = x1 - x0, dy = y1 - y0;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {x0 - r.left, r.right - x0, y0 - r.top, r.bottom - y0};
    for (int k = 0; k < 4; ++k) {
        if (p[k] == 0.0) {
            if (q[k] < 0.0) return std::nullopt;
            continue;
        }
        const double t = q[k] / p[k];
        if (p[k] < 0.0) t0 = std::max(t0, t);
        else t1 = std::min(t1, t);
        if (t0 > t1) return std::nullopt;
    }
    return std::array<double, 4>{x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy};
}

// The y axis of a panel: where a value lands, and the ticks.
struct Axis {
    bool logarithmic = false;
    double low = 0.0, high = 1.0;  // in log10 for a logarithmic axis
    std::vector<double> ticks;     // values, not logs
    bool empty = false;            // nothing to draw

    std::optional<double> position(double v) const {  // 0 at low, 1 at high
        if (!std::isfinite(v) || (logarithmic && v <= 0.0)) return std::nullopt;
        return ((logarithmic ? std::log10(v) : v) - low) / (high - low);
    }
};

Axis yAxis(const PlotPanel& panel) {
    Axis axis;
    axis.logarithmic = panel.logarithmic;
    double lo = INFINITY, hi = -INFINITY;
    for (const PlotSeries& s : panel.series)
        for (double v : s.y)
            if (std::isfinite(v) && (!panel.logarithmic || v > 0.0)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
    if (lo > hi) {
        axis.empty = true;
        return axis;
    }
    if (panel.logarithmic) {
        axis.low = std::floor(std::log10(lo));
        axis.high = std::max(std::ceil(std::log10(hi)), axis.low + 1.0);
        const int decades = static_cast<int>(axis.high - axis.low);
        const int every = decades / 6 + 1;
        for (int d = 0; d <= decades; d += every) axis.ticks.push_back(std::pow(10.0, axis.low + d));
        return axis;
    }
    const double pad = hi > lo ? 0.05 * (hi - lo) : std::max(1e-3 * std::abs(lo), 1e-9);
    axis.low = lo - pad;
    axis.high = hi + pad;
    const double step = niceStep(axis.high - axis.low, 5);
    for (double v = std::ceil(axis.low / step) * step; v <= axis.high; v += step)
        axis.ticks.push_back(std::abs(v) < 1e-9 * step ? 0.0 : v);
    return axis;
}

std::string tickLabel(const Axis& axis, double value) {
    if (!axis.logarithmic) return label(value);
    return "1e" + std::to_string(static_cast<int>(std::lround(std::log10(value))));
}

}  // namespace

bool writePlotPng(const std::string& file, int width, int height, double tEnd, const std::vector<PlotPanel>& panels,
                  const std::vector<PlotLegendEntry>& legend) {
    Canvas canvas(width, height);
    constexpr int kLeft = 110, kRight = 24, kLegendHeight = 44;
    const int panelHeight = (height - kLegendHeight) / static_cast<int>(std::max<std::size_t>(panels.size(), 1));
    const double tStep = niceStep(tEnd, 8);
    for (std::size_t p = 0; p < panels.size(); ++p) {
        const PlotPanel& panel = panels[p];
        const int top = static_cast<int>(p) * panelHeight;
        const Rect plot{kLeft, top + 12 + kTextHeight, width - 1 - kRight, top + panelHeight - 14 - kTextHeight};
        canvas.text(kLeft, top + 8, panel.title, kInk);
        const Axis axis = yAxis(panel);
        const auto px = [&](double t) { return plot.left + t / tEnd * (plot.right - plot.left); };
        const auto py = [&](double fraction) { return plot.bottom - fraction * (plot.bottom - plot.top); };
        // Grid and ticks, then the curves, then the frame over them.
        for (double t = 0.0; t <= tEnd * (1.0 + 1e-9); t += tStep) {
            const int x = static_cast<int>(std::lround(px(t)));
            canvas.line(x, plot.top, x, plot.bottom, kGrid);
            const std::string text = label(std::abs(t) < 1e-9 * tStep ? 0.0 : t);
            canvas.text(x - textWidth(text) / 2, plot.bottom + 6, text, kInk);
        }
        if (p + 1 == panels.size())
            canvas.text(plot.right - textWidth("t (s)"), plot.bottom + 8 + kTextHeight, "t (s)", kInk);
        if (axis.empty) {
            const std::string text = panel.logarithmic ? "nothing above 0" : "no data";
            canvas.text((plot.left + plot.right - textWidth(text)) / 2, (plot.top + plot.bottom - kTextHeight) / 2,
                        text, kInk);
        }
        for (double v : axis.ticks) {
            const int y = static_cast<int>(std::lround(py(*axis.position(v))));
            canvas.line(plot.left, y, plot.right, y, kGrid);
            const std::string text = tickLabel(axis, v);
            canvas.text(plot.left - 8 - textWidth(text), y - kTextHeight / 2, text, kInk);
        }
        for (std::size_t s = 0; s < panel.series.size() && !axis.empty; ++s) {
            const PlotSeries& series = panel.series[s];
            const Rgb colour = kPalette[s % kPalette.size()];
            std::optional<std::array<double, 2>> previous, last;
            for (std::size_t i = 0; i < series.t.size() && i < series.y.size(); ++i) {
                const std::optional<double> f = axis.position(series.y[i]);
                if (!f) {
                    previous.reset();
                    continue;
                }
                const std::array<double, 2> point{px(series.t[i]), py(*f)};
                if (previous)
                    if (const auto c = clip((*previous)[0], (*previous)[1], point[0], point[1], plot))
                        canvas.line(static_cast<int>(std::lround((*c)[0])), static_cast<int>(std::lround((*c)[1])),
                                    static_cast<int>(std::lround((*c)[2])), static_cast<int>(std::lround((*c)[3])),
                                    colour, 2);
                previous = last = point;
            }
            if (last && s < legend.size() && legend[s].crossed && (*last)[1] >= plot.top && (*last)[1] <= plot.bottom) {
                const int x = static_cast<int>(std::lround((*last)[0])), y = static_cast<int>(std::lround((*last)[1]));
                canvas.line(x - 6, y - 6, x + 6, y + 6, colour, 3);
                canvas.line(x - 6, y + 6, x + 6, y - 6, colour, 3);
            }
        }
        canvas.line(plot.left, plot.top, plot.right, plot.top, kInk);
        canvas.line(plot.left, plot.bottom, plot.right, plot.bottom, kInk);
        canvas.line(plot.left, plot.top, plot.left, plot.bottom, kInk);
        canvas.line(plot.right, plot.top, plot.right, plot.bottom, kInk);
    }
    // The legend: a stroke of each colour and its label, in a row along the bottom.
    int x = kLeft;
    const int y = height - kLegendHeight + (kLegendHeight - kTextHeight) / 2;
    for (std::size_t s = 0; s < legend.size(); ++s) {
        const Rgb colour = kPalette[s % kPalette.size()];
        canvas.line(x, y + kTextHeight / 2, x + 28, y + kTextHeight / 2, colour, 4);
        canvas.text(x + 36, y, legend[s].label, kInk);
        x += 36 + textWidth(legend[s].label) + 28;
    }
    return canvas.writePng(file);
}

}  // namespace tinkerbox
