// Hand-built AST nodes for evaluator tests that do not need the parser.
import type {
  Argument, BinaryOperator, BodyExpression, Expression, Member, QualifiedName, SourceRange, Usage,
} from '../../../src/sysml/ast';

export const R: SourceRange = { start: 0, end: 1, line: 1, column: 1, endLine: 1, endColumn: 2 };
export const at = (line: number, column: number): SourceRange => ({ start: 0, end: 1, line, column, endLine: line, endColumn: column + 1 });

export const qn = (...segments: string[]): QualifiedName => ({ kind: 'QualifiedName', segments, segmentStarts: segments.map(() => 0), isGlobal: false, range: R });
export const lit = (value: number | string | boolean, range = R): Expression => ({
  kind: 'Literal',
  literal: typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'real') : typeof value === 'string' ? 'string' : 'boolean',
  value,
  range,
});
export const realLit = (value: number): Expression => ({ kind: 'Literal', literal: 'real', value, range: R });
export const name = (...segments: string[]): Expression => ({ kind: 'Name', name: qn(...segments), range: R });
export const bin = (operator: BinaryOperator, left: Expression, right: Expression, range = R): Expression => ({ kind: 'Binary', operator, left, right, range });
export const neg = (operand: Expression): Expression => ({ kind: 'Unary', operator: '-', operand, range: R });
export const not = (operand: Expression): Expression => ({ kind: 'Unary', operator: 'not', operand, range: R });
export const cond = (condition: Expression, then: Expression, otherwise: Expression): Expression => ({ kind: 'Conditional', condition, then, else: otherwise, range: R });
export const qty = (value: Expression, unit: Expression, range = R): Expression => ({ kind: 'Quantity', value, unit, range });
export const seq = (...items: Expression[]): Expression => ({ kind: 'Sequence', items, range: R });
export const nul: Expression = { kind: 'Null', range: R };
export const arg = (value: Expression, argName: string | null = null): Argument => ({ kind: 'Argument', name: argName, value, range: R });
export const call = (callee: string, ...args: Argument[]): Expression => ({ kind: 'Invocation', callee: qn(...callee.split('::')), args, range: R });
export const member = (target: Expression, m: string): Expression => ({ kind: 'MemberAccess', target, member: qn(m), range: R });
export const arrow = (target: Expression, callee: string, ...args: Argument[]): Expression => ({ kind: 'ArrowInvocation', target, callee: qn(callee), args, range: R });
export const idx = (target: Expression, i: Expression): Expression => ({ kind: 'Index', target, index: i, range: R });
export const istype = (operand: Expression, ...type: string[]): Expression => ({ kind: 'Classification', operator: 'istype', operand, type: qn(...type), range: R });
export const castAs = (operand: Expression, ...type: string[]): Expression => ({ kind: 'Classification', operator: 'as', operand, type: qn(...type), range: R });

export function usage(u: Partial<Usage> & { name: string | null }): Usage {
  return {
    kind: 'Usage', keyword: 'attribute', isKeywordImplicit: false, role: null, isParallel: false, isNegated: false,
    isSufficient: false, ends: null, payload: null, satisfiedBy: null, about: [], body: null,
    direction: null, isAbstract: false, isVariation: false, isConstant: false, isDerived: false, isEnd: false,
    isRef: false, isComposite: false, isVar: false, isIndividual: false, portionKind: null, isOrdered: false,
    isNonunique: false, relations: [], multiplicity: null, value: null, range: R, visibility: null,
    prefixMetadata: [], shortName: null, nameRange: null,
    ...u,
  };
}

export const valued = (expression: Expression) => ({ kind: 'FeatureValue' as const, isInitial: false, isDefault: false, expression, range: R });
export const param = (n: string, value?: Expression): Usage => usage({ name: n, direction: 'in', value: value ? valued(value) : null });
export const local = (n: string, value: Expression): Usage => usage({ name: n, value: valued(value) });
export const result = (expression: Expression): Member => ({ kind: 'ResultExpression', expression, range: R, visibility: null, prefixMetadata: [] });
export const body = (paramName: string, res: Expression, ...members: Member[]): BodyExpression => ({
  kind: 'Body', members: [param(paramName), ...members], result: res, range: R,
});
