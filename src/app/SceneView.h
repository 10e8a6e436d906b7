#pragma once
// What the scene looks like: turns the editor's model into a RenderFrame. Springs are
// coloured by strain (blue compressed, grey at rest, red stretched); cloths are surfaces and
// hair strands (or both lines coloured by strain); nailed, hovered and selected particles
// are told apart; gestures draw their rubber band, wire, mouse spring, or the tuft the hair
// tool would grow.
#include "editor/Editor.h"
#include "render/RenderFrame.h"

namespace tinkerbox {

// A body as the renderer draws it: its shape frame's origin and orientation (the shape is
// given in that frame), and the shape, in the colours of a body that is fixed or not.
BodyInstance bodyInstance(const RigidBodies& bodies, Index k);

// Blue at -20 % strain, grey at rest, red at +20 %.
Color strainColor(double strain);

// A cloth as a surface of the triangles its energies act on (those holes leave), where the
// world has its particles, numbered within the cloth, in the surface's default colours.
SurfaceInstance clothSurface(const World& world, const ClothSpec& cloth);

// The piece of a hair's strand from particle root on, length particles long (the whole strand
// when it is uncut), in the colours it has on the whole strand, whose root and tip colours
// whole gives (its width too; its points are not read).
StrandInstance hairStrand(const World& world, const HairSpec& hair, Index root, Index length,
                          const StrandInstance& whole);

// Which particles are held in place (nailed, or by a nail constraint), and which each piece
// of a hair's strands of two particles or more starts with that hold it: held in place, or
// pinned to a body. Drawn shaded, a strand shows its root as its start, not as particles.
struct HeldParticles {
    std::vector<char> held, strandRoot;  // per particle of the world
};
HeldParticles heldParticles(const World& world, const Scene& scene);

struct SceneViewOptions {
    bool bodyAxes = false;  // each body's axes and angular velocity
    bool contacts = false;  // the contact model's points and normals of the last step
    // Cloths as shaded surfaces and hair as lit strands, their particles shown only where
    // nailed (but not a strand's root, the particles it starts with that are nailed or pinned
    // to a body, nor those pins), hovered or selected; else both as lines coloured by strain,
    // with every particle.
    bool shadedClothAndHair = true;
};

// Bodies are drawn shaded with their centres of mass marked.
void buildRenderFrame(const Editor& editor, RenderFrame& frame, const SceneViewOptions& options = {});

}  // namespace tinkerbox
