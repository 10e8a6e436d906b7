#pragma once
// Line plots written as a PNG (stb_image_write), drawn here pixel by pixel: panels stacked
// over a shared time axis, one colour per series, a legend and tick labels in a small
// built-in bitmap font. For `tinkerbox-sim compare --plot`.
#include <string>
#include <vector>

namespace tinkerbox {

struct PlotSeries {
    std::vector<double> t, y;  // the same length; a non-finite y (or, on a log axis, y <= 0) breaks the line
};

struct PlotPanel {
    std::string title;
    bool logarithmic = false;        // decades on the y axis
    std::vector<PlotSeries> series;  // one per legend entry, in its order and colour
};

struct PlotLegendEntry {
    std::string label;
    bool crossed = false;  // the series ends in a cross (e.g. a run that diverged there)
};

// Every panel shares the time axis, from 0 to tEnd. Returns false when the file cannot be written.
bool writePlotPng(const std::string& file, int width, int height, double tEnd, const std::vector<PlotPanel>& panels,
                  const std::vector<PlotLegendEntry>& legend);

}  // namespace tinkerbox
