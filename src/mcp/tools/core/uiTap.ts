import { flagArgument, observeArgument, sessionIdArgument, targetArgument } from '../../arguments.js';
import { defineTool } from '../../defineTool.js';
import { actor } from '../../ToolDefinition.js';

export const uiTapTool = defineTool({
  name: 'ui_tap',
  toolset: 'core',
  title: 'Tap',
  description: 'Taps what the selector names: {target, element_label, after}; a miss lists what is offered.',
  annotations: actor(false),
  answer:
    '`{target, element_label, foreground_package, after}`, `long_press: true` for a long press, `pressed_outside` when the centre was covered, `hint` when a tap on a long-press-only entry changed nothing; evidence `ui-tap` (`ui-long-press`)',
  arguments: {
    selector: targetArgument,
    long_press: flagArgument('long_press', 'true: hold 1.5 s (entries with role long-press)'),
    observe: observeArgument,
    session_id: sessionIdArgument,
  },
  handle: (services, input, context) =>
    services.actions.tap(context, input.selector, input.session_id, input.long_press, input.observe),
});
