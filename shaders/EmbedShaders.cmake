# Writes OUT, a C++ file holding every shader of SHADERS (a ,-list of
# paths) as a string literal named by its path under shaders/, so that an
# installed klx needs no shaders folder. Run by the build (app/CMakeLists).
set(body "")
string(REPLACE "," ";" SHADERS "${SHADERS}")
foreach(path ${SHADERS})
  file(READ "${path}" source)
  get_filename_component(name "${path}" NAME)
  string(APPEND body "    {\"shaders/${name}\", R\"klxglsl(${source})klxglsl\"},\n")
endforeach()
file(WRITE "${OUT}.tmp"
"// Generated from shaders/ by shaders/EmbedShaders.cmake; do not edit.\n"
"#include \"render/Shaders.h\"\n\n"
"const klx::app::EmbeddedShader klx::app::kEmbeddedShaders[] = {\n"
"${body}"
"    {nullptr, nullptr}};\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
