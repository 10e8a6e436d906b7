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
// For the depth: a particle is a ball of its pixel radius, over surfaces drawn surfaceLift
// nearer the viewer (surface.vert), so that one on a cloth or resting on a body shows whole.
uniform vec3 eye;
uniform vec3 forward;
uniform float orthographic;  // 1 in the 2D view
uniform float pixelSize;     // world length of a pixel in the 2D view
uniform float pixelSizePerDistance;
uniform float surfaceLift;   // world

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
    float away = dot(center - eye, forward);
    vec3 towardEye = orthographic > 0.5 ? -forward : normalize(eye - center);
    float lift = radius * (orthographic > 0.5 ? pixelSize : pixelSizePerDistance * away) + surfaceLift;
    if (orthographic < 0.5) lift = min(lift, 0.5 * away);
    vec4 front = viewProjection * vec4(center + lift * towardEye, 1.0);
    gl_Position = vec4(clip.xy, front.z / front.w * clip.w, clip.w);
    discRadius = radius;
    fillColor = fill;
    outlineColor = outline;
    outlinePixels = outlineWidth;
}
