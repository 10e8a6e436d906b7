#version 330 core
// A box body: the faces of a unit cube, instanced, scaled to the box's edges, rotated by
// its orientation (a unit quaternion) and moved to its position. box.frag draws its
// outline inside the faces.
layout(location = 0) in vec3 corner;  // -0.5 .. 0.5
layout(location = 1) in vec3 faceNormal;
layout(location = 2) in vec3 position;
layout(location = 3) in vec4 orientation;  // x, y, z, w
layout(location = 4) in vec3 size;
layout(location = 5) in vec4 fill;
layout(location = 6) in vec4 outline;
layout(location = 7) in float outlineWidth;  // pixels
layout(location = 8) in vec2 flags;  // selected, fixed

uniform mat4 viewProjection;

out vec3 cubePoint;
out vec3 worldPoint;
flat out vec3 cubeNormal;
flat out vec4 bodyOrientation;
flat out vec3 worldNormal;
flat out vec4 fillColor;
flat out vec4 outlineColor;
flat out float outlinePixels;
flat out vec2 bodyFlags;

// q v q*, expanded (Rodrigues).
vec3 rotate(vec4 q, vec3 v) {
    vec3 t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

void main() {
    vec3 world = position + rotate(orientation, corner * size);
    gl_Position = viewProjection * vec4(world, 1.0);
    cubePoint = corner;
    worldPoint = world;
    cubeNormal = faceNormal;
    bodyOrientation = orientation;
    worldNormal = rotate(orientation, faceNormal);  // the scale keeps axis-aligned normals
    fillColor = fill;
    outlineColor = outline;
    outlinePixels = outlineWidth;
    bodyFlags = flags;
}
