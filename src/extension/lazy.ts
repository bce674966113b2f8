// Everything the extension loads on first use, built as its own bundle (dist/extension-lazy.js, see
// scripts/build.mjs): VS Code's activation time counts compiling the activation bundle, so that bundle
// holds only the shell, and the host core, the SysML front end, zod, the language client, the witness
// replay, the task commands and the team feed session are compiled when first needed.
export { QuestionFlow } from './ask/askFlow';
export { engineAnswers } from './ask/askSettings';
export { createLanguageClient } from './language/languageServer';
export { TaskCommands } from './tasks/tasksCommands';
export { hasWitnessView, witnessView } from '../host/witness-view';
export { WitnessPanel, WITNESS_VIEW_TYPE } from './witness/witnessWebview';
export { FeedSession } from './feed/feedSession';
export { checkCompareMessage } from './compare/compareMessages';
