#pragma once
// The force fields, as plain descriptions (what a scene file holds). A field acts on all of
// what it acts on (the wind on every cloth's triangles), not on elements placed between chosen
// particles. Each names its kind (ForceFieldKind.h: its name, file fields with their ranges,
// factory), defined with its force; the variant below is the registry of fields.
#include <cstdint>
#include <variant>

#include "core/math/Types.h"

namespace tinkerbox {

struct ForceFieldKind;

// Wind on cloth triangles (Wind.h): a mean velocity and travelling gusts.
struct WindSettings {
    Vec3 velocity = Vec3::Zero();  // mean wind, m/s
    double turbulence = 0.0;       // amplitude of the turbulent part, m/s
    double drag = 1.0;             // c, kg/(m^2 s), along the normal
    double tangentialDrag = 0.0;   // ct, kg/(m^2 s), along the face
    double scale = 1.0;            // length scale of the gusts, m
    double frequency = 1.0;        // their mean frequency, Hz
    std::uint64_t seed = 1;
    static const ForceFieldKind kind;

    bool operator==(const WindSettings&) const = default;
};

// Every force field; a scene holds at most one of each alternative.
using ForceFieldSpec = std::variant<WindSettings>;

}  // namespace tinkerbox
