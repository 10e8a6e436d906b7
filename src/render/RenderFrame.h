#pragma once
// Everything the renderer draws in one frame, as plain data in world coordinates. The app
// fills it from the editor and the simulation; the renderer only draws it. Sizes marked
// "pixels" stay the same on screen whatever the zoom.
#include <vector>

#include "core/math/Types.h"

namespace tinkerbox {

struct Color {
    float r = 1.0f, g = 1.0f, b = 1.0f, a = 1.0f;
};

struct DiscInstance {  // a particle
    Vec3 center = Vec3::Zero();
    float radius = 5.0f;  // pixels
    Color fill;
    Color outline;
    float outlineWidth = 1.0f;  // pixels
};

struct SegmentInstance {  // a spring, a rod, a rubber band
    Vec3 a = Vec3::Zero();
    Vec3 b = Vec3::Zero();
    float width = 2.0f;  // pixels
    Color color;
    bool dashed = false;
};

struct CircleInstance {  // a wire
    Vec3 center = Vec3::Zero();
    Vec3 normal = Vec3::UnitZ();
    double radius = 1.0;  // world
    float width = 2.0f;   // pixels
    Color color;
};

struct PlaneInstance {  // ground and walls
    Vec3 point = Vec3::Zero();
    Vec3 normal = Vec3::UnitY();
    Color color;
};

struct RenderFrame {
    Color background{0.09f, 0.10f, 0.12f, 1.0f};
    bool grid = true;  // the z = 0 plane in 2D, a horizontal ground at groundLevel in 3D
    double groundLevel = 0.0;
    std::vector<PlaneInstance> planes;
    std::vector<CircleInstance> circles;
    std::vector<SegmentInstance> segments;
    std::vector<DiscInstance> discs;  // drawn last, on top

    void clear() {
        planes.clear();
        circles.clear();
        segments.clear();
        discs.clear();
    }
};

}  // namespace tinkerbox
