// `agui-leptos/react`: <AguiChat>, a thin React 18 and 19 wrapper of <agui-chat>.
import type { CSSProperties, ForwardRefExoticComponent, ReactNode, RefAttributes } from 'react';
import type { AguiChatElement, AguiChatOptions } from './index.js';

export type {
  AguiChatElement,
  AguiChatOptions,
  AguiTool,
  AguiSuggestion,
  AguiToolCall,
} from './index.js';

// @generated-begin from src/embed/table.rs (AGUI_BLESS=1 cargo test --test project manifest)
/** One prop per event: each receives the `CustomEvent`. */
export interface AguiChatEventProps {
  /** `agui:run-started`: A run started. */
  onRunStarted?: (event: CustomEvent<import('./index.js').AguiRunStartedDetail>) => void;
  /**
   * `agui:state-changed`: The agent's state changed (at most once per animation frame); read it
   * with `element.state`.
   */
  onStateChanged?: (event: CustomEvent<import('./index.js').AguiStateChangedDetail>) => void;
  /** `agui:interrupt`: New interrupts opened (their cards are shown and focused). */
  onInterrupt?: (event: CustomEvent<import('./index.js').AguiInterruptDetail>) => void;
  /** `agui:run-finished`: A run ended. */
  onRunFinished?: (event: CustomEvent<import('./index.js').AguiRunFinishedDetail>) => void;
  /**
   * `agui:feedback`: The person rated an answer. The chat sends feedback nowhere itself (AG-UI has
   * no event for it).
   */
  onFeedback?: (event: CustomEvent<import('./index.js').AguiFeedbackDetail>) => void;
}
// @generated-end

/** The props of <AguiChat>: the mount options, one handler per event, and the element's own. */
export interface AguiChatProps extends AguiChatOptions, AguiChatEventProps {
  id?: string;
  className?: string;
  style?: CSSProperties;
  children?: ReactNode;
  [attribute: `data-${string}` | `aria-${string}`]: string | undefined;
}

/**
 * <agui-chat> with its options as props. Props with a new identity but the same content do
 * not remount the chat; the handlers are always the latest; safe under <StrictMode> and to
 * import during server rendering.
 */
export declare const AguiChat: ForwardRefExoticComponent<AguiChatProps & RefAttributes<AguiChatElement>>;
export default AguiChat;
