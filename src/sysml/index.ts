// The SysML v2 / KerML front end: parse text into the tree of ./ast.ts.
export * from './ast';
export { parse, languageOfPath, type ParseOptions } from './parser';
export { tokenize, type TokenStream } from './lexer';
export { walk, childrenOf } from './walk';
