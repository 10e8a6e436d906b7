#version 330 core
// The faces of hulls: a directional light and ambient.
in vec3 worldNormal;
flat in vec4 fillColor;
flat in vec2 bodyFlags;  // selected, fixed

uniform vec3 lightDirection;  // unit, toward the light

out vec4 color;

// As in box.frag and sphere.frag: fixed bodies are darker and hatched with screen-space stripes,
// selected ones lighter.
vec3 bodyColor(vec3 base, vec2 flags) {
    if (flags.y > 0.5) {
        base *= 0.6;
        if (mod(gl_FragCoord.x + gl_FragCoord.y, 9.0) < 3.0) base *= 0.7;
    }
    if (flags.x > 0.5) base = mix(base, vec3(1.0), 0.25);
    return base;
}

void main() {
    vec3 n = normalize(worldNormal);
    float light = 0.35 + 0.65 * max(dot(n, lightDirection), 0.0);
    color = vec4(bodyColor(fillColor.rgb, bodyFlags) * light, 1.0);
}
