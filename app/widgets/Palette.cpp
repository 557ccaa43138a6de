//===- Palette.cpp - The colours of the window, one table per theme -------===//

#include "Palette.h"

#include "views/RoleView.h"

#include <algorithm>

using namespace klx::app;
using palette::Theme;

namespace {

constexpr ImU32 rgb(int r, int g, int b, int a = 255) {
  return IM_COL32(r, g, b, a);
}

// Dark: the editor colours of VS Code's Dark+ on ImGui's dark style.
constexpr Theme kDark = {
    ThemeName::Dark,
    /*clear=*/rgb(23, 23, 26),
    /*windowBackground=*/rgb(15, 15, 16),
    /*editorBackground=*/rgb(24, 26, 32),
    /*correlated=*/rgb(42, 56, 24),
    /*searchMatch=*/rgb(66, 54, 14),
    /*selection=*/rgb(34, 52, 92),
    /*errorLine=*/rgb(80, 24, 24),
    /*warningLine=*/rgb(66, 52, 12),
    /*added=*/rgb(22, 58, 30),
    /*removed=*/rgb(76, 28, 28),
    /*addedWords=*/rgb(26, 70, 36),
    /*removedWords=*/rgb(100, 32, 32),
    /*tokens=*/
    {rgb(212, 212, 212), rgb(130, 184, 106), rgb(112, 178, 236),
     rgb(156, 220, 254), rgb(220, 220, 170), rgb(78, 201, 176),
     rgb(212, 152, 208), rgb(181, 206, 168), rgb(222, 162, 136),
     rgb(215, 186, 125)},
    /*lineNumber=*/rgb(164, 172, 184),
    /*dimText=*/rgb(140, 140, 140),
    /*brightText=*/rgb(230, 230, 230),
    /*errorText=*/rgb(255, 115, 102),
    /*warningText=*/rgb(255, 204, 77),
    /*goodText=*/rgb(115, 204, 115),
    /*headingText=*/rgb(255, 217, 115),
    /*linkText=*/rgb(115, 191, 255),
    /*inlineCodeText=*/rgb(242, 191, 128),
    /*variantA=*/rgb(115, 179, 255),
    /*variantB=*/rgb(255, 179, 89),
    /*searchOutline=*/rgb(240, 200, 60),
    /*changedMarker=*/rgb(120, 200, 120),
    /*failedMarker=*/rgb(235, 90, 80),
    /*barBackground=*/rgb(50, 50, 55),
    /*laneBackground=*/rgb(30, 30, 34),
    /*measuredLaneBackground=*/rgb(26, 32, 40),
    /*measuredLaneText=*/rgb(150, 200, 230),
    /*foldedEvents=*/rgb(110, 110, 120),
    /*arriveTick=*/rgb(230, 230, 230),
    /*copyTick=*/rgb(230, 210, 90),
    /*landedTick=*/rgb(120, 220, 120),
    /*mmaTick=*/rgb(80, 160, 230),
    /*deadlockLine=*/rgb(240, 80, 70),
    /*measureWash=*/rgb(255, 255, 255, 40),
    /*gridWash=*/rgb(255, 255, 255, 26),
    /*labelBackground=*/rgb(20, 20, 20, 230),
    /*flowArrow=*/rgb(250, 250, 250, 230),
    /*codeBackground=*/rgb(31, 31, 36),
    /*codeText=*/rgb(204, 204, 204),
    /*roleSlots=*/
    {rgb(230, 150, 60), rgb(80, 160, 230), rgb(170, 120, 220),
     rgb(90, 190, 120), rgb(220, 100, 150), rgb(200, 200, 90)},
    /*noRole=*/rgb(150, 150, 150),
    /*stages=*/
    {rgb(120, 60, 60), rgb(120, 95, 50), rgb(70, 100, 60), rgb(60, 90, 120),
     rgb(100, 70, 120), rgb(60, 110, 110), rgb(110, 110, 60)},
    /*stageMarks=*/
    {rgb(180, 120, 120), rgb(180, 155, 110), rgb(130, 160, 120),
     rgb(120, 150, 180), rgb(160, 130, 180), rgb(120, 170, 170),
     rgb(170, 170, 120)},
};

// Light: for projectors and bright rooms; VS Code's Light+ syntax colours
// darkened where a mark behind the line would take them under 4.5:1.
constexpr Theme kLight = {
    ThemeName::Light,
    /*clear=*/rgb(222, 222, 226),
    /*windowBackground=*/rgb(240, 240, 240),
    /*editorBackground=*/rgb(255, 255, 255),
    /*correlated=*/rgb(224, 240, 208),
    /*searchMatch=*/rgb(255, 238, 176),
    /*selection=*/rgb(206, 224, 250),
    /*errorLine=*/rgb(255, 222, 222),
    /*warningLine=*/rgb(255, 238, 200),
    /*added=*/rgb(220, 245, 222),
    /*removed=*/rgb(255, 226, 226),
    /*addedWords=*/rgb(190, 234, 194),
    /*removedWords=*/rgb(255, 204, 204),
    /*tokens=*/
    {rgb(28, 28, 28), rgb(0, 100, 0), rgb(0, 0, 200), rgb(0, 60, 130),
     rgb(110, 75, 0), rgb(0, 95, 95), rgb(135, 0, 135), rgb(0, 95, 55),
     rgb(160, 30, 20), rgb(120, 65, 0)},
    /*lineNumber=*/rgb(88, 88, 98),
    /*dimText=*/rgb(96, 96, 96),
    /*brightText=*/rgb(20, 20, 20),
    /*errorText=*/rgb(185, 25, 25),
    /*warningText=*/rgb(140, 85, 0),
    /*goodText=*/rgb(20, 115, 40),
    /*headingText=*/rgb(140, 75, 0),
    /*linkText=*/rgb(0, 85, 175),
    /*inlineCodeText=*/rgb(150, 55, 0),
    /*variantA=*/rgb(20, 85, 195),
    /*variantB=*/rgb(170, 80, 0),
    /*searchOutline=*/rgb(165, 90, 0),
    /*changedMarker=*/rgb(30, 140, 50),
    /*failedMarker=*/rgb(205, 40, 40),
    /*barBackground=*/rgb(214, 214, 220),
    /*laneBackground=*/rgb(228, 228, 232),
    /*measuredLaneBackground=*/rgb(218, 228, 240),
    /*measuredLaneText=*/rgb(20, 70, 130),
    /*foldedEvents=*/rgb(150, 150, 160),
    /*arriveTick=*/rgb(40, 40, 40),
    /*copyTick=*/rgb(190, 145, 0),
    /*landedTick=*/rgb(30, 150, 50),
    /*mmaTick=*/rgb(30, 100, 200),
    /*deadlockLine=*/rgb(220, 40, 30),
    /*measureWash=*/rgb(0, 0, 0, 30),
    /*gridWash=*/rgb(0, 0, 0, 22),
    /*labelBackground=*/rgb(255, 255, 255, 235),
    /*flowArrow=*/rgb(20, 20, 20, 230),
    /*codeBackground=*/rgb(226, 226, 232),
    /*codeText=*/rgb(36, 36, 36),
    /*roleSlots=*/
    {rgb(150, 72, 0), rgb(25, 90, 175), rgb(125, 70, 185), rgb(25, 110, 50),
     rgb(185, 45, 110), rgb(105, 95, 0)},
    /*noRole=*/rgb(115, 115, 115),
    /*stages=*/
    {rgb(236, 182, 182), rgb(236, 206, 160), rgb(192, 222, 176),
     rgb(176, 202, 232), rgb(212, 192, 232), rgb(172, 216, 216),
     rgb(216, 216, 166)},
    /*stageMarks=*/
    {rgb(176, 122, 122), rgb(176, 146, 100), rgb(132, 162, 116),
     rgb(116, 142, 172), rgb(152, 132, 172), rgb(112, 156, 156),
     rgb(156, 156, 106)},
};

const Theme *current = &kDark;

int wrap(int index, int count) { return ((index % count) + count) % count; }

} // namespace

const Theme &palette::darkTheme() { return kDark; }
const Theme &palette::lightTheme() { return kLight; }
const Theme &palette::theme() { return *current; }

void palette::useTheme(ThemeName name) {
  current = name == ThemeName::Light ? &kLight : &kDark;
}

std::vector<ImU32> palette::textBackgrounds(const Theme &t) {
  return {t.windowBackground, t.editorBackground, t.correlated,  t.searchMatch,
          t.selection,        t.errorLine,        t.warningLine, t.added,
          t.removed,          t.addedWords,       t.removedWords};
}

ImU32 palette::token(TokenKind kind) {
  int index = int(kind);
  return index >= 0 && index < kTokenKinds ? theme().tokens[index]
                                           : theme().tokens[0];
}

ImU32 palette::roleSlot(int index) {
  if (index < 0)
    return theme().noRole;
  return theme().roleSlots[wrap(index, kRoleSlots)];
}

ImU32 palette::role(llvm::StringRef name) {
  return roleSlot(roleColourSlot(name));
}

ImU32 palette::roleBackground(llvm::StringRef name) {
  // Toward the pane's background: dark behind light text, pale behind
  // dark text.
  ImU32 colour = role(name), to = theme().windowBackground;
  int keep = theme().name == ThemeName::Light ? 28 : 35; // percent
  auto mix = [&](int shift) {
    int a = int((colour >> shift) & 0xFF), b = int((to >> shift) & 0xFF);
    return (a * keep + b * (100 - keep)) / 100;
  };
  return IM_COL32(mix(IM_COL32_R_SHIFT), mix(IM_COL32_G_SHIFT),
                  mix(IM_COL32_B_SHIFT), 255);
}

ImU32 palette::stage(int slot) {
  return theme().stages[wrap(slot, kStageSlots)];
}

ImU32 palette::stageMark(int slot) {
  return theme().stageMarks[wrap(slot, kStageSlots)];
}
