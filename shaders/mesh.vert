#version 330 core
// Convex hull bodies: triangles already placed in the world, a flat normal per face.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 fill;
layout(location = 3) in vec2 flags;  // selected, fixed

uniform mat4 viewProjection;

out vec3 worldNormal;
flat out vec4 fillColor;
flat out vec2 bodyFlags;

void main() {
    gl_Position = viewProjection * vec4(position, 1.0);
    worldNormal = normal;
    fillColor = fill;
    bodyFlags = flags;
}
