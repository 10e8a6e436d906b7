#include "core/forces/Wind.h"

#include <cmath>
#include <numbers>

#include "core/forces/ForceFieldKind.h"
#include "core/math/Rotation.h"

namespace tinkerbox {

namespace {

constexpr int kWaves = 8;

// SplitMix64 (Steele, Lea and Flood, Fast Splittable Pseudorandom Number Generators, OOPSLA
// 2014): the same numbers on every platform, unlike the standard distributions.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    double uniform() {  // [0, 1)
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        return static_cast<double>(z >> 11) * 0x1.0p-53;
    }
    Vec3 unitVector() {  // uniform on the sphere (Archimedes: z uniform in [-1, 1])
        const double z = 2.0 * uniform() - 1.0, phi = 2.0 * std::numbers::pi * uniform();
        const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
        return Vec3(r * std::cos(phi), r * std::sin(phi), z);
    }

private:
    std::uint64_t state_;
};

}  // namespace

Wind::Wind(const WindSettings& settings) : settings_(settings) {
    SplitMix64 random(settings.seed);
    const double waveNumber = 2.0 * std::numbers::pi / settings.scale;
    for (int k = 0; k < kWaves; ++k) {
        Wave w;
        w.direction = random.unitVector();
        w.waveVector = random.unitVector() * (waveNumber * (0.5 + random.uniform()));
        w.angularFrequency = 2.0 * std::numbers::pi * settings.frequency * (0.5 + random.uniform());
        w.phase = 2.0 * std::numbers::pi * random.uniform();
        w.amplitude = settings.turbulence / std::sqrt(static_cast<double>(kWaves));  // rms about turbulence / sqrt(2)
        waves_.push_back(w);
    }
}

Index Wind::addTriangle(const std::array<Index, 3>& particles) {
    addElement(particles);
    return elementCount() - 1;
}

Vec3 Wind::airVelocity(const Vec3& x, double t, Mat3* gradient) const {
    Vec3 w = settings_.velocity;
    if (gradient) gradient->setZero();
    for (const Wave& wave : waves_) {
        const double argument = wave.waveVector.dot(x) - wave.angularFrequency * t + wave.phase;
        w += (wave.amplitude * std::sin(argument)) * wave.direction;
        if (gradient) *gradient += (wave.amplitude * std::cos(argument)) * wave.direction * wave.waveVector.transpose();
    }
    return w;
}

namespace {
// The area vector a = (x1 - x0) x (x2 - x0) / 2 and the centroid.
void triangleGeometry(const Eigen::Matrix<double, 9, 1>& x, Vec3& a, Vec3& centroid) {
    const Vec3 x0 = x.segment<3>(0), x1 = x.segment<3>(3), x2 = x.segment<3>(6);
    a = 0.5 * (x1 - x0).cross(x2 - x0);
    centroid = (x0 + x1 + x2) / 3.0;
}
}  // namespace

void Wind::elementForce(const ModelState& state, Index, const Vector& x, const Vector& v, Vector& fe) const {
    Vec3 a, centroid;
    triangleGeometry(x, a, centroid);
    const double area = a.norm();
    if (area < 1e-300) return;
    const Vec3 u = (v.segment<3>(0) + v.segment<3>(3) + v.segment<3>(6)) / 3.0 - airVelocity(centroid, state.time());
    const Vec3 F =
        (-(settings_.drag - settings_.tangentialDrag) * a.dot(u) / area) * a - settings_.tangentialDrag * area * u;
    for (int m = 0; m < 3; ++m) fe.segment<3>(3 * m) += F / 3.0;
}

void Wind::elementJacobians(const ModelState& state, Index, const Vector& x, const Vector& v, const JacobianRequest& r,
                            Matrix& K, Vector& KxV) const {
    Vec3 a, centroid;
    triangleGeometry(x, a, centroid);
    const double area = a.norm();
    if (area < 1e-300) return;
    const double c = settings_.drag - settings_.tangentialDrag, ct = settings_.tangentialDrag;
    // dF/du = -c' a a^T/|a| - ct |a| I (c' = c - ct): along n -c |a|, across it -ct |a|.
    // Each corner's third of F depends on each corner's velocity through u/3.
    const Mat3 dFdu = (-c / area) * a * a.transpose() - (ct * area) * Mat3::Identity();
    for (int m = 0; m < 3; ++m)
        for (int n = 0; n < 3; ++n) K.block<3, 3>(3 * m, 3 * n) += (r.cv / 9.0) * dFdu;
    if (r.form == JacobianForm::Definite) return;
    Mat3 dwdx;
    const Vec3 u =
        (v.segment<3>(0) + v.segment<3>(3) + v.segment<3>(6)) / 3.0 - airVelocity(centroid, state.time(), &dwdx);
    const Vec3 n = a / area;
    // dF/da = -c' [a u^T + (a . u)(I - n n^T)]/|a| - ct u n^T.
    const Mat3 dFda =
        (-c / area) * (a * u.transpose() + a.dot(u) * (Mat3::Identity() - n * n.transpose())) - ct * u * n.transpose();
    // da/dx1 = -[e2]x/2, da/dx2 = [e1]x/2, da/dx0 = -(da/dx1 + da/dx2); du/dx_n = -dw/dx/3.
    const Vec3 e1 = x.segment<3>(3) - x.segment<3>(0), e2 = x.segment<3>(6) - x.segment<3>(0);
    const Mat3 dadx1 = -0.5 * skew(e2), dadx2 = 0.5 * skew(e1);
    const Mat3 dadx[3] = {-(dadx1 + dadx2), dadx1, dadx2};
    Matrix Kx;
    for (int k = 0; k < 3; ++k) {
        const Mat3 dFdx = dFda * dadx[k] - dFdu * dwdx / 3.0;
        for (int m = 0; m < 3; ++m) Kx.block<3, 3>(3 * m, 3 * k) = dFdx / 3.0;
    }
    K += r.cx * Kx;
    KxV += Kx * v;
}

// --- Its kind: the file's fields with their ranges, the panel's breeze, the factory --------

namespace {

WindSettings& windOf(ForceFieldSpec& spec) { return std::get<WindSettings>(spec); }
const WindSettings& windOf(const ForceFieldSpec& spec) { return std::get<WindSettings>(spec); }

constexpr ForceFieldVector kWindVectors[] = {
    {.key = "velocity",
     .label = "velocity (m/s)",
     .help = "The mean wind.",
     .get = [](const ForceFieldSpec& s) { return windOf(s).velocity; },
     .set = [](ForceFieldSpec& s, const Vec3& v) { windOf(s).velocity = v; }},
};

constexpr ForceFieldParameter kWindParameters[] = {
    {.key = "turbulence",
     .label = "gusts (m/s)",
     .help = "The gusts' amplitude: 8 travelling waves of air, the same every run.",
     .min = 0.0,
     .max = kMaxSceneMagnitude,
     .get = [](const ForceFieldSpec& s) { return windOf(s).turbulence; },
     .set = [](ForceFieldSpec& s, double v) { windOf(s).turbulence = v; }},
    {.key = "drag",
     .label = "drag",
     .help = "kg/(m^2 s): the force per unit area and speed of air across a triangle, along its normal.",
     .min = 0.0,
     .max = kMaxSceneMagnitude,
     .get = [](const ForceFieldSpec& s) { return windOf(s).drag; },
     .set = [](ForceFieldSpec& s, double v) { windOf(s).drag = v; }},
    {.key = "tangential_drag",
     .label = "face drag",
     .help = "kg/(m^2 s): likewise along the face (skin friction, what holds a flag out).",
     .min = 0.0,
     .max = kMaxSceneMagnitude,
     .get = [](const ForceFieldSpec& s) { return windOf(s).tangentialDrag; },
     .set = [](ForceFieldSpec& s, double v) { windOf(s).tangentialDrag = v; }},
    {.key = "scale",
     .label = "gust size (m)",
     .help = "The gusts' length scale.",
     .min = kMinScenePositive,
     .max = kMaxSceneMagnitude,
     .get = [](const ForceFieldSpec& s) { return windOf(s).scale; },
     .set = [](ForceFieldSpec& s, double v) { windOf(s).scale = v; }},
    {.key = "frequency",
     .label = "gust rate (Hz)",
     .help = "The gusts' mean frequency.",
     .min = 0.0,
     .max = kMaxSceneMagnitude,
     .get = [](const ForceFieldSpec& s) { return windOf(s).frequency; },
     .set = [](ForceFieldSpec& s, double v) { windOf(s).frequency = v; }},
    // Up to 2^31 - 1, so that the panel's integer field holds every seed.
    {.key = "seed",
     .label = "gust seed",
     .help = "Which gusts: the waves' directions, lengths and phases come from this number.",
     .type = ParameterType::Count,
     .min = 0.0,
     .max = 2147483647.0,
     .get = [](const ForceFieldSpec& s) { return static_cast<double>(windOf(s).seed); },
     .set = [](ForceFieldSpec& s, double v) { windOf(s).seed = static_cast<std::uint64_t>(v); }},
};

}  // namespace

const ForceFieldKind WindSettings::kind{
    .name = "wind",
    .label = "wind on cloths",
    .summary =
        "Air moving past every cloth's triangles, with gusts: a drag along each triangle's normal and a "
        "weaker one along its face.",
    .vectors = kWindVectors,
    .parameters = kWindParameters,
    .example = []() -> ForceFieldSpec {
        // A breeze along x with gusts, as a start to change.
        WindSettings breeze;
        breeze.velocity = Vec3(5.0, 0.0, 0.0);
        breeze.turbulence = 2.0;
        breeze.tangentialDrag = 0.3;
        return breeze;
    },
    .make = [](const ForceFieldSpec& spec, std::span<const std::array<Index, 3>> surfaces) -> std::unique_ptr<Force> {
        auto wind = std::make_unique<Wind>(windOf(spec));
        for (const std::array<Index, 3>& triangle : surfaces) wind->addTriangle(triangle);
        return wind;
    },
};

}  // namespace tinkerbox
