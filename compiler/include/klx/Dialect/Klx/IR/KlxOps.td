//===- KlxOps.td - Operations of the klx dialect -----------*- tablegen -*-===//

#ifndef KLX_DIALECT_KLX_IR_KLXOPS_TD
#define KLX_DIALECT_KLX_IR_KLXOPS_TD

include "klx/Dialect/Klx/IR/KlxDialect.td"

class Klx_Op<string mnemonic, list<Trait> traits = []> :
    Op<Klx_Dialect, mnemonic, traits>;

#endif // KLX_DIALECT_KLX_IR_KLXOPS_TD
