// The page's entry: start listening to the workspace, render the app.

import { render } from 'preact'
import { App } from './app.tsx'
import { startStore } from './store.ts'
import './styles.css'

startStore()
render(<App />, document.getElementById('app') as HTMLElement)
