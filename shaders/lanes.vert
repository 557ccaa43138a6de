#version 330 core
// One instanced rectangle per timeline event: the lane it sits in, its
// start and end, its colour. Zoom and pan are uniforms, so moving the view
// uploads nothing; an event narrower than a pixel is widened to one, so
// none disappears (the GPU's answer to the CPU path's folding).

// Per instance (glVertexAttribDivisor 1).
layout(location = 0) in vec2 span;   // start, end, minus the data's origin
layout(location = 1) in float lane;  // 0 at the top
layout(location = 2) in vec4 colour; // RGBA8, normalized

// The visible window: its start minus the origin as a float and the
// float's rounding error (so that a deep zoom far from the origin does not
// snap to whole floats), and its length.
uniform float viewStart;
uniform float viewStartLow;
uniform float viewSpan;
uniform vec4 plotPixels; // x0, y0, x1, y1 in framebuffer pixels (y down)
uniform vec2 framebuffer; // its size in pixels
uniform float laneHeight; // pixels, the gap included
uniform float laneGap;    // pixels left empty below each lane

out vec4 fragmentColour;

void main() {
  // Corners of a triangle strip: (0,0) (1,0) (0,1) (1,1).
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  float width = plotPixels.z - plotPixels.x;
  float scale = width / max(viewSpan, 1e-6);
  float x0 = plotPixels.x + ((span.x - viewStart) - viewStartLow) * scale;
  float x1 = plotPixels.x + ((span.y - viewStart) - viewStartLow) * scale;
  x1 = max(x1, x0 + 1.0);
  float y0 = plotPixels.y + lane * laneHeight;
  float y1 = y0 + laneHeight - laneGap;
  vec2 pixel = vec2(mix(x0, x1, corner.x), mix(y0, y1, corner.y));
  // Framebuffer pixels (y down) to clip space (y up).
  vec2 clip = pixel / framebuffer * 2.0 - 1.0;
  gl_Position = vec4(clip.x, -clip.y, 0.0, 1.0);
  fragmentColour = colour;
}
