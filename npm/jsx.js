// Types only: see jsx.d.ts.
