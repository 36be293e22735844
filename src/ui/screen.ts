// What every screen is given (in its own module, so screens and the screen table do not import
// each other).

/** The props of a screen: its route and a way to go elsewhere. */
export interface ScreenProps {
  /** The route's parts after the screen's id: `#/knowledge/R-001` → ['R-001']. */
  path: string[];
  /** Goes to another route: navigate('knowledge', 'R-001'). */
  navigate(...parts: string[]): void;
}
