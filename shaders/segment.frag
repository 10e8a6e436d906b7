#version 330 core
in float across;
in float along;
flat in float halfWidth;
flat in vec4 colorOut;
flat in float dash;

out vec4 color;

void main() {
    float coverage = clamp(halfWidth + 0.5 - abs(across), 0.0, 1.0);
    if (dash > 0.5 && mod(along, 12.0) > 7.0) coverage = 0.0;
    if (coverage <= 0.0) discard;
    color = vec4(colorOut.rgb, colorOut.a * coverage);
}
