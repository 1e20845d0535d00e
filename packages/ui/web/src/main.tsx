// The page's entry: start listening to the workspace, render the app.

import { render } from 'preact'
import { App } from './app.tsx'
import { startStore } from './store.ts'
import './styles.css'

// The address carried this launch's token once; the cookie carries it from now on.
if (location.search !== '') history.replaceState(null, '', '/')
startStore()
render(<App />, document.getElementById('app') as HTMLElement)
