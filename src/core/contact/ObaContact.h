#pragma once
// The contact model "oba": optimization-based animation (Schmidl, Optimization-Based
// Animation, PhD thesis, Univ. of Miami 2002, chapter 6). After each integrator step, whose
// end is every body's target (where its trajectory takes it, ignoring the others):
//   1. position update (section 6.1): the bodies are moved as little as possible from their
//      targets, in the mass-weighted metric of eq. 6.7, so that nothing overlaps: a series of
//      quadratic programs on the separating-plane constraints linearized at the positions
//      of the last one (eqs. 6.18, 6.19), until no point overlaps; every point held apart
//      stays in the later programs, a body turns at most kMaxTurn and shifts at most its
//      radius of gyration per program, a program without a solution first wakes the frozen
//      bodies its overlapping points press on and is tried again, and is otherwise rolled
//      back (section 6.1.4, table 6.1);
//   2. collision impulses (sections 6.2.1, 6.2.2): a priority queue resolves the fastest
//      approaching points one at a time, Newton's impact law with Coulomb friction (a Newton's
//      cradle passes its momentum ball to ball), for at most as many collisions as there are
//      bodies; one quadratic program then resolves whatever still collides: the kinetic energy
//      after the impulses is minimized subject to v_n+ >= -e v_n- at the colliding points,
//      v_n+ >= 0 at the others, and the friction pyramid (FrictionPyramid.h);
//   3. static contact (section 6.3.2): the same program with restitution 0 at every point, for
//      what the step's gravity made approach.
// Points are found one step ahead ("bounce at a distance", section 6.7.1): a gap that the
// approach would close within the next step is a contact whose impulse may close it, no more.
// Freezing (section 6.7.2): a body at rest (kinetic energy below that of a step's gravity, eq.
// 6.48) for kFreezeTime and in contact with a fixed or frozen body stops being simulated (so a
// settled pile freezes from its support up in one step): its pose is held and its contacts
// with fixed and frozen bodies are left out, until a collision or a pull (any force but
// gravity) wakes it.
// The thesis's flaw, a box sliding fast hops (a free normal impulse buys friction that takes
// more kinetic energy than the hop gives back), is fixed by solving the normal impulses first
// and then friction with its bound held at those normal impulses (settings().hopFix).
// Joints are kept by the world's constraint solver; after the impulses the velocities are
// projected onto them, as the model baraff does.
#include <array>
#include <cstdint>
#include <vector>

#include "core/bodies/InverseMass.h"
#include "core/collision/ContactDetector.h"
#include "core/contact/ContactModel.h"
#include "core/math/QuadraticProgram.h"
#include "core/math/Rotation.h"

namespace tinkerbox {

extern const ContactModelKind kObaContactKind;

class ObaContact final : public ContactModel {
public:
    static constexpr double kMargin = 0.005;  // metres: points found closer than this, at rest
    // Metres: what the position update leaves. A program moves a corner to within the square of
    // its turn times its arm (about 1e-4 m when a step sinks a resting cube by g h^2 at 1/30 s),
    // the next to within about 1e-6 m: 1e-5 m ends there, one program sooner than 1e-6 m would.
    static constexpr double kOverlapTolerance = 1e-5;
    // Metres: points this close at the step's end (after the next step's approach) touch.
    static constexpr double kTouching = 1e-4;
    static constexpr int kMaxPositionIterations = 8;  // quadratic programs per position update
    static constexpr double kMaxTurn = 0.1;           // radians per axis per position program
    // The most contact points a step takes (ContactDetector's bound, lower than baraff's): the
    // programs hold about 10 kB a point in a pile (the planar pyramid of 5,050 cubes has 40,000
    // points) and about 22 kB where every body touches every other (bodies piled on one spot,
    // whose pairs of points couple all the rows), so that this bounds them to about 1.4 GB.
    static constexpr long kMaxContactPoints = 1L << 16;
    // Seconds at rest before a body freezes: the thesis's c_f = 3 frames of 1/30 s (its cube
    // jam's; its stack froze after 1).
    static constexpr double kFreezeTime = 0.1;
    // A frozen body whose velocity after a step differs from what gravity alone gave it by more
    // than this fraction of g h was pulled (a spring, the mouse) and wakes.
    static constexpr double kPullTolerance = 0.01;

    explicit ObaContact(const ContactModelSettings& settings = {}) : settings_(settings) {}

    const ContactModelKind& kind() const override { return kObaContactKind; }
    void afterStep(World& world, const VecX& start, double h, ContactReport& report) override;
    const std::vector<ContactManifold>& manifolds() const override { return manifolds_; }
    void reset() override;
    void setSettings(const ContactModelSettings& settings) override;
    bool isFrozen(Index rigidBody) const override;

    // The deepest overlap the last step's position update left (metres, measured by a
    // detection after it).
    double lastOverlapAfterPositions() const { return overlapAfterPositions_; }
    // How many position programs had no solution and were rolled back, since the start.
    long rollbacks() const { return rollbacks_; }

private:
    // One direction of a contact point: the relative velocity along it is J u, J's parts per
    // side (linear, angular), W J^T's parts, and J W J^T.
    struct Axis {
        Vec3 linearA, angularA, linearB, angularB;
        Vec3 wLinearA, wAngularA, wLinearB, wAngularB;
        double effectiveMass = 0.0;  // 1 / (J W J^T), 0 when nothing moves
    };
    struct Row {
        ColliderRef a, b;
        bool movableA = false, movableB = false;  // a fixed, frozen or planar side takes no impulse
        Index linearA = -1, angularA = -1, linearB = -1, angularB = -1;  // velocity blocks; the spare one when none
        std::array<Axis, 3> axes;                                        // normal, tangent 1, tangent 2
        int tangents = 2;                                                // 1 in a planar world
        double separation = 0.0;
        double friction = 0.0, restitution = 0.0;
        double target = 0.0;  // the least normal velocity after the impulses (0 or a bounce)
        bool colliding = false;
    };

    // A point the position update has kept apart in this step: its two surface points in the
    // frames of their colliders, and the normal, so that later iterations linearize it again
    // at their own positions even when the detection no longer reports it.
    struct HeldPoint {
        ColliderRef a, b;
        std::uint32_t feature = 0;
        Vec3 onA, onB;  // in a's and b's frames (a rigid body's, a particle's offset, a plane's world)
        Vec3 normal;    // world, from a to b
    };

    void freezeStart(World& world, const VecX& start, double h);
    void buildRows(const World& world, bool withFrozenPairs);
    void buildAxis(const InverseMass& W, Row& row, const Vec3& direction, const Vec3& ra, const Vec3& rb,
                   Axis& axis) const;
    double velocityAlong(const Axis& axis, const Row& row) const;
    void applyImpulse(const Axis& axis, const Row& row, double impulse);
    double updatePositions(World& world, double margin, ContactReport& report);
    // Where the particles and bodies are, to roll a position program back.
    struct Poses {
        std::vector<Vec3> particles, positions;
        std::vector<Quat> orientations;
        VecX displacement;
    };
    enum class PositionProgram { NothingToDo, Moved, Failed };

    void holdCriticalPoints(const World& world);
    void buildHeldRows(const World& world);
    PositionProgram solvePositions(World& world);
    // Wakes the frozen bodies that held points overlapping a moving body press on; returns
    // whether any woke.
    bool wakeSqueezing();
    Poses savePoses(const World& world) const;
    void restorePoses(World& world, const Poses& poses);
    int collide(World& world, double threshold, double h);
    // One impulse program over the contacts among rows_ (the targets set), the hop fix
    // applied if set.
    int solveImpulses(const World& world, double h);
    int solveProgram(QuadraticProgram& qp, VecX& impulses);
    void freezeEnd(World& world, double h, double g);
    bool isMovable(const World& world, const ColliderRef& c) const;

    ContactModelSettings settings_;
    ContactDetector detector_{kMaxContactPoints};
    std::vector<ContactManifold> manifolds_, active_;
    std::vector<Row> rows_, contacts_;
    std::vector<HeldPoint> held_;  // of this step's position update
    std::vector<Row> heldRows_;    // held_ linearized at the current positions
    std::vector<Poses> undo_;      // before each position program of this step
    long rollbacks_ = 0;
    VecX u_;             // (v, omega) per velocity block, and a spare zero block
    VecX displacement_;  // of this step's position update, per velocity block
    // Freezing, per rigid body: time at rest, frozen or not, and the held pose.
    std::vector<double> restTime_;
    std::vector<char> frozen_;
    std::vector<Vec3> frozenPosition_;
    std::vector<Quat> frozenOrientation_;
    std::vector<char> joined_;  // bodies in a constraint: never frozen
    double overlapAfterPositions_ = 0.0;
    long positionIterations_ = 0;
};

}  // namespace tinkerbox
