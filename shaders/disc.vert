#version 330 core
// A particle: an instanced quad around the projected centre, sized in pixels.
layout(location = 0) in vec2 corner;  // (-1, -1) .. (1, 1)
layout(location = 1) in vec3 center;
layout(location = 2) in float radius;  // pixels
layout(location = 3) in vec4 fill;
layout(location = 4) in vec4 outline;
layout(location = 5) in float outlineWidth;  // pixels

uniform mat4 viewProjection;
uniform vec2 viewport;  // pixels

out vec2 pixelOffset;
flat out float discRadius;
flat out vec4 fillColor;
flat out vec4 outlineColor;
flat out float outlinePixels;

void main() {
    vec4 clip = viewProjection * vec4(center, 1.0);
    float extent = radius + 1.5;  // room for the antialiased rim
    pixelOffset = corner * extent;
    clip.xy += pixelOffset * 2.0 / viewport * clip.w;
    gl_Position = clip;
    discRadius = radius;
    fillColor = fill;
    outlineColor = outline;
    outlinePixels = outlineWidth;
}
