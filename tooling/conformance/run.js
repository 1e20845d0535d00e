console.log('0 passed, 0 failed')
