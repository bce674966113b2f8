// Lowering of SysML v2 behaviour to the graphs:1 model form.
export { lowerToGraphs, type Graphs, type GraphNode, type GraphSuccessor, type GraphTrigger, type GraphRange, type LowerOptions, type LowerResult } from './graphs';
