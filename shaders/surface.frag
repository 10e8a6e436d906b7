#version 330 core
// Cloth surfaces, lit from whichever side faces the viewer: the front (counter-clockwise on
// screen, the side the normals face) in its colour, the back in its own with the normal
// turned over. A directional light and ambient, as on bodies.
in vec3 worldNormal;

uniform vec3 lightDirection;  // unit, toward the light
uniform vec4 frontColor;
uniform vec4 backColor;

out vec4 color;

void main() {
    float size = length(worldNormal);  // zero where the normals cancel: ambient light alone
    vec3 n = size > 0.0 ? worldNormal / size : vec3(0.0);
    vec3 base = frontColor.rgb;
    if (!gl_FrontFacing) {
        n = -n;
        base = backColor.rgb;
    }
    float light = 0.35 + 0.65 * max(dot(n, lightDirection), 0.0);
    color = vec4(base * light, 1.0);
}
