#pragma once
// The OpenGL 3.3 core renderer: draws a RenderFrame as seen by a Camera. Particles are
// instanced, antialiased discs, depth tested in 3D as balls of their radius; springs, rods
// and gestures are instanced quads of a given pixel width, and so are hair strands, lit as
// fibres; wires are circles; planes and the ground grid fade out with distance.
// Rigid bodies are opaque and depth tested in both views, lit by a light fixed to the view:
// boxes are instanced cubes, spheres instanced squares ray cast per pixel, hulls flat-shaded
// triangles; all are outlined in pixels along their feature edges. Cloth surfaces are opaque
// too, smooth shaded from both sides.
// Shaders live in shaders/ and are built into the program.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "render/Camera.h"
#include "render/RenderFrame.h"

namespace tinkerbox {

class Renderer {
public:
    // Needs a current context whose functions glad has loaded. Throws std::runtime_error,
    // saying what is missing, when the context is older than OpenGL 3.3 core or a shader
    // does not build.
    Renderer();
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    // Draws into the current framebuffer, over the camera's whole viewport.
    void draw(const RenderFrame& frame, const Camera& camera);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The current framebuffer as RGBA rows, top row first.
std::vector<std::uint8_t> readFramebuffer(int width, int height);
// Writes it as a PNG; throws std::runtime_error naming the file on failure.
void saveFramebufferPng(const std::filesystem::path& file, int width, int height);

}  // namespace tinkerbox
